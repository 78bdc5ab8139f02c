package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// MachineFile is the file in the data home that names this machine. Native
// sessions live in one machine's harness stores, so links, cursors and
// lease probing are per machine (docs/workstream-identity.md, "Machines").
const MachineFile = "machine-id"

// MachineEnv overrides the machine id of the data home. Tests set it to
// simulate several machines on one; a user may set it to keep one id
// across reinstalls.
const MachineEnv = "AI_MEMORY_MACHINE_ID"

// LeaseEnv shortens the lease for tests only: a whole number of seconds in
// [MinLease, LeaseDuration]. Nothing a user runs needs it; a shorter lease
// only makes a crashed launcher's workstream free sooner at the cost of
// more heartbeats.
const LeaseEnv = "AI_MEMORY_LEASE_SECONDS"

// MinLease is the shortest lease LeaseEnv accepts: the launcher renews
// every third of it, so 3 s is a renewal per second.
const MinLease = 3 * time.Second

// CheckMachineID reports whether id can name a machine: 1 to 64 letters,
// digits, '.', '_' or '-', so it is safe in messages, paths and SQL text.
func CheckMachineID(id string) error {
	if id == "" || len(id) > 64 {
		return fmt.Errorf("machine id %q must be 1 to 64 characters", id)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return fmt.Errorf("machine id %q may hold only letters, digits, '.', '_' and '-'", id)
		}
	}
	return nil
}

// machineFromEnv is the machine id AI_MEMORY_MACHINE_ID sets, "" when unset.
func machineFromEnv(getenv func(string) string) (string, error) {
	id := strings.TrimSpace(getenv(MachineEnv))
	if id == "" {
		return "", nil
	}
	if err := CheckMachineID(id); err != nil {
		return "", fmt.Errorf("%s: %w", MachineEnv, err)
	}
	return id, nil
}

// leaseFromEnv is the lease AI_MEMORY_LEASE_SECONDS sets, 0 when unset.
func leaseFromEnv(getenv func(string) string) (time.Duration, error) {
	v := strings.TrimSpace(getenv(LeaseEnv))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	lo, hi := int(MinLease/time.Second), int(LeaseDuration/time.Second)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s=%q must be a whole number of seconds from %d to %d (a test-only knob; unset it for the normal %d s lease)", LeaseEnv, v, lo, hi, hi)
	}
	return time.Duration(n) * time.Second, nil
}

// MachineOf resolves the machine id a ledger opened at w acts as:
// w.Machine when set, else the id stored in the data home's machine-id
// file. With create, a missing file is made (a random UUID, mode 0600; the
// home 0700 if needed) so the id is stable from then on; without, a
// missing file gives "" and nothing is written (read-only commands).
func MachineOf(w Where, create bool) (string, error) {
	if w.Machine != "" {
		return w.Machine, CheckMachineID(w.Machine)
	}
	if w.Home == "" {
		return "", errors.New("machine id: empty data directory")
	}
	path := filepath.Join(w.Home, MachineFile)
	id, err := readMachineFile(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || !create {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		return id, err
	}
	return createMachineFile(w.Home, path)
}

func readMachineFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	id := string(bytes.TrimSpace(b))
	if err := CheckMachineID(id); err != nil {
		return "", fmt.Errorf("%s: %w; restore it from a backup, or delete it to give this data home a new machine id (its sessions then count as another machine's)", path, err)
	}
	return id, nil
}

// createMachineFile writes a new id to a temporary file and links it into
// place, so that of several processes creating it at once exactly one id
// wins and every process reads that one.
func createMachineFile(home, path string) (string, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", fmt.Errorf("create data directory: %w", err)
	}
	u, err := uuid.NewRandom()
	if err != nil {
		return "", fmt.Errorf("new machine id: %w", err)
	}
	tmp, err := os.CreateTemp(home, ".machine-id-*")
	if err != nil {
		return "", fmt.Errorf("create machine id: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(u.String() + "\n")
	serr := tmp.Sync()
	if err := errors.Join(werr, serr, tmp.Close()); err != nil {
		return "", fmt.Errorf("write machine id: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("create %s: %w", path, err)
	}
	return readMachineFile(path)
}

// SameMachine reports whether two lease owners run on the same machine, so
// that one may probe the other's process: the machine ids and the host
// names agree. Owners on different machines never probe each other; their
// leases end only by lapsing.
func SameMachine(a, b Owner) bool {
	return a.Machine != "" && a.Machine == b.Machine && a.Host == b.Host
}

// Host is this host's name, as CurrentOwner records it.
func Host() string { return hostname() }
