package ledger

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestMachineOf_CreatedOnceStableAndPrivate(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if id, err := MachineOf(Where{Home: home}, false); err != nil || id != "" {
		t.Fatalf("without create = %q, %v; want none and nothing written", id, err)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Fatalf("a read created the data home: %v", err)
	}
	// Processes starting at once on a fresh home agree on one id.
	ids := make([]string, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id, err := MachineOf(Where{Home: home}, true)
			if err != nil {
				t.Error(err)
			}
			ids[i] = id
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] || CheckMachineID(id) != nil {
			t.Fatalf("concurrent first uses gave %q; want one valid id", ids)
		}
	}
	st, err := os.Stat(filepath.Join(home, MachineFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("machine-id file = %v, %v; want mode 0600", st, err)
	}
	again, err := MachineOf(Where{Home: home}, false)
	if err != nil || again != ids[0] {
		t.Fatalf("reread = %q, %v; want %q", again, err, ids[0])
	}
	if id, err := MachineOf(Where{Home: home, Machine: "laptop"}, true); err != nil || id != "laptop" {
		t.Fatalf("explicit = %q, %v; want it to win", id, err)
	}
	ents, _ := os.ReadDir(home)
	if len(ents) != 1 {
		t.Fatalf("data home holds %d files; want only the machine-id (no temp files left)", len(ents))
	}
}

func TestMachineOf_CorruptFile(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, MachineFile), []byte("not an id!\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := MachineOf(Where{Home: home}, true)
	if err == nil || !strings.Contains(err.Error(), "delete it to give this data home a new machine id") {
		t.Fatalf("corrupt machine-id = %v; want what to do", err)
	}
}

func TestDefaultWhere_MachineAndLeaseKnobs(t *testing.T) {
	tests := []struct {
		name           string
		env            map[string]string
		machine, error string
		lease          time.Duration
	}{
		{"defaults", nil, "", "", 0},
		{"machine id", map[string]string{MachineEnv: " box-2.lan "}, "box-2.lan", "", 0},
		{"bad machine id", map[string]string{MachineEnv: "a b"}, "", "AI_MEMORY_MACHINE_ID: machine id \"a b\" may hold only", 0},
		{"long machine id", map[string]string{MachineEnv: strings.Repeat("m", 65)}, "", "1 to 64 characters", 0},
		{"lease", map[string]string{LeaseEnv: "3"}, "", "", 3 * time.Second},
		{"lease max", map[string]string{LeaseEnv: "90"}, "", "", 90 * time.Second},
		{"lease too short", map[string]string{LeaseEnv: "2"}, "", "AI_MEMORY_LEASE_SECONDS=\"2\" must be a whole number of seconds from 3 to 90 (a test-only knob", 0},
		{"lease too long", map[string]string{LeaseEnv: "91"}, "", "from 3 to 90", 0},
		{"lease not a number", map[string]string{LeaseEnv: "1m"}, "", "from 3 to 90", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"AI_MEMORY_HOME": "/data/h"}
			for k, v := range tt.env {
				env[k] = v
			}
			w, err := DefaultWhere(func(k string) string { return env[k] })
			if tt.error != "" {
				if err == nil || !strings.Contains(err.Error(), tt.error) {
					t.Fatalf("err = %v; want %q", err, tt.error)
				}
				return
			}
			if err != nil || w.Machine != tt.machine || w.Lease != tt.lease || w.Home != "/data/h" {
				t.Fatalf("DefaultWhere = %+v, %v; want machine %q lease %v", w, err, tt.machine, tt.lease)
			}
		})
	}
}

func TestSameMachine(t *testing.T) {
	a := Owner{Machine: "m1", Host: "h", PID: 1}
	tests := []struct {
		b    Owner
		want bool
	}{
		{Owner{Machine: "m1", Host: "h", PID: 2}, true},
		{Owner{Machine: "m2", Host: "h"}, false},
		{Owner{Machine: "m1", Host: "other"}, false},
		{Owner{Host: "h"}, false},
	}
	for _, tt := range tests {
		if got := SameMachine(a, tt.b); got != tt.want {
			t.Errorf("SameMachine(%+v, %+v) = %v; want %v", a, tt.b, got, tt.want)
		}
	}
	if SameMachine(Owner{Host: "h"}, Owner{Host: "h"}) {
		t.Error("two owners without a machine count as one machine")
	}
}
