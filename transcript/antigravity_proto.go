package transcript

// protobufField returns the bytes of the first length-delimited field
// numbered field of a protobuf message. Other fields are skipped by wire
// type; an unknown wire type or a length past the end stops the walk
// (false): nothing is guessed.
func protobufField(msg []byte, field uint64) ([]byte, bool) {
	for i := 0; i < len(msg); {
		key, n := protobufVarint(msg[i:])
		if n == 0 {
			return nil, false
		}
		i += n
		switch key & 7 {
		case 0:
			_, n := protobufVarint(msg[i:])
			if n == 0 {
				return nil, false
			}
			i += n
		case 1:
			i += 8
		case 5:
			i += 4
		case 2:
			l, n := protobufVarint(msg[i:])
			if n == 0 || l > uint64(len(msg)-i-n) {
				return nil, false
			}
			i += n
			if key>>3 == field {
				return msg[i : i+int(l)], true
			}
			i += int(l)
		default:
			return nil, false
		}
	}
	return nil, false
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
