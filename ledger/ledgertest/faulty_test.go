package ledgertest

import (
	"errors"
	"reflect"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
)

// TestFaultyFailsEveryCall: while down, every ledger method (but the four
// that never touch storage) fails with ErrUnavailable without reaching the
// wrapped ledger, so a method added to ledger.Ledger and not to Faulty
// fails here (the nil ledger inside would panic).
func TestFaultyFailsEveryCall(t *testing.T) {
	f := &Faulty{}
	f.SetDown(true)
	never := map[string]bool{"Home": true, "Location": true, "Machine": true, "SchemaVersion": true, "Close": true}
	it := reflect.TypeOf((*ledger.Ledger)(nil)).Elem()
	v := reflect.ValueOf(f)
	for i := 0; i < it.NumMethod(); i++ {
		m := it.Method(i)
		if never[m.Name] {
			continue
		}
		t.Run(m.Name, func(t *testing.T) {
			fn := v.MethodByName(m.Name)
			args := make([]reflect.Value, fn.Type().NumIn())
			for j := range args {
				args[j] = reflect.Zero(fn.Type().In(j))
			}
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s reached the wrapped ledger while down: %v", m.Name, r)
				}
			}()
			out := fn.Call(args)
			err, _ := out[len(out)-1].Interface().(error)
			if !errors.Is(err, ledger.ErrUnavailable) {
				t.Fatalf("%s while down = %v; want ErrUnavailable", m.Name, err)
			}
		})
	}
	if f.Calls.Load() == 0 {
		t.Fatal("no failed call counted")
	}
}
