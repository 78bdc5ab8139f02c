package transcript

import "time"

// protobufField returns the bytes of the first length-delimited field
// numbered field of a protobuf message. Other fields are skipped by wire
// type; an unknown wire type or a length past the end stops the walk
// (false): nothing is guessed.
func protobufField(msg []byte, field uint64) ([]byte, bool) {
	var out []byte
	found := protobufWalk(msg, func(f, wire, _ uint64, data []byte) bool {
		if f == field && wire == 2 {
			out = data
			return true
		}
		return false
	})
	return out, found
}

// protobufVarintField returns the first varint field numbered field.
func protobufVarintField(msg []byte, field uint64) (uint64, bool) {
	var out uint64
	found := protobufWalk(msg, func(f, wire, v uint64, _ []byte) bool {
		if f == field && wire == 0 {
			out = v
			return true
		}
		return false
	})
	return out, found
}

// protobufTimestamp decodes a google.protobuf.Timestamp message (field 1
// seconds, field 2 nanos); false when the seconds are missing or either
// value is out of range.
func protobufTimestamp(msg []byte) (time.Time, bool) {
	sec, ok := protobufVarintField(msg, 1)
	nanos, _ := protobufVarintField(msg, 2)
	if !ok || sec == 0 || sec > 1<<40 || nanos > 999_999_999 {
		return time.Time{}, false
	}
	return time.Unix(int64(sec), int64(nanos)).UTC(), true
}

// protobufWalk calls visit for each field of msg (its number, wire type,
// varint value, and bytes for a length-delimited one) until visit returns
// true, and reports whether it did. A malformed message ends the walk.
func protobufWalk(msg []byte, visit func(field, wire, v uint64, data []byte) bool) bool {
	for i := 0; i < len(msg); {
		key, n := protobufVarint(msg[i:])
		if n == 0 {
			return false
		}
		i += n
		var v uint64
		var data []byte
		switch key & 7 {
		case 0:
			if v, n = protobufVarint(msg[i:]); n == 0 {
				return false
			}
			i += n
		case 1:
			i += 8
		case 5:
			i += 4
		case 2:
			l, n := protobufVarint(msg[i:])
			if n == 0 || l > uint64(len(msg)-i-n) {
				return false
			}
			i += n
			data = msg[i : i+int(l)]
			i += int(l)
		default:
			return false
		}
		if i > len(msg) {
			return false
		}
		if visit(key>>3, key&7, v, data) {
			return true
		}
	}
	return false
}

// protobufVarint decodes a base-128 varint: its value and length (0 when
// it is truncated or longer than 10 bytes).
func protobufVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 10; i++ {
		if i == 9 && b[i] > 1 {
			return 0, 0
		}
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}
