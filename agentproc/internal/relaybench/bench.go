package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// bench runs the two comparisons, interleaving the variants run by run so that load from
// other users of the machine hits both sides alike:
//
//  1. start overhead: `relaybench run -- true` (PTY) against `true` run directly;
//  2. relay throughput: `relaybench run -- cat FILE` against `script -qfc "cat FILE" /dev/null`,
//     output to /dev/null. The kernel tty layer caps both, so script(1) is the fair reference.
func bench(args []string) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	runs := fs.Int("runs", 31, "start-overhead runs per variant")
	mb := fs.Int("mb", 500, "size of the throughput file in MiB")
	tputRuns := fs.Int("tput-runs", 5, "throughput runs per variant")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "locate relaybench:", err)
		return 1
	}
	if err := benchStart(self, *runs); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := benchThroughput(self, *mb, *tputRuns); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func benchStart(self string, runs int) error {
	truePath, err := exec.LookPath("true")
	if err != nil {
		return fmt.Errorf("find true: %w", err)
	}
	d, err := interleave(runs, [][]string{{truePath}, {self, "run", "--", truePath}})
	if err != nil {
		return err
	}
	direct, relay := walls(d[0]), walls(d[1])
	fmt.Printf("start: true direct   median %s p90 %s (n=%d)\n", ms(median(direct)), ms(pct(direct, 90)), runs)
	fmt.Printf("start: relay + true  median %s p90 %s\n", ms(median(relay)), ms(pct(relay, 90)))
	fmt.Printf("start: added by relay median %s p90 %s (target <= 10 ms)\n",
		ms(median(relay)-median(direct)), ms(pct(relay, 90)-pct(direct, 90)))
	return nil
}

func benchThroughput(self string, mb, runs int) error {
	if _, err := exec.LookPath("script"); err != nil {
		return fmt.Errorf("script(1) not found; install util-linux (bsdutils on Debian)")
	}
	dir, err := os.MkdirTemp("", "relaybench-")
	if err != nil {
		return fmt.Errorf("create temp dir: %w", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "payload.txt")
	if err := writePayload(file, int64(mb)<<20); err != nil {
		return err
	}
	d, err := interleave(runs, [][]string{
		{"script", "-qfc", "cat " + file, "/dev/null"},
		{self, "run", "--", "cat", file},
	})
	if err != nil {
		return err
	}
	script, relay := median(walls(d[0])), median(walls(d[1]))
	scriptCPU, relayCPU := median(cpus(d[0])), median(cpus(d[1]))
	rate := func(t time.Duration) float64 { return float64(mb) / t.Seconds() }
	fmt.Printf("tput: script -qfc cat  median %.2fs %.0f MiB/s, cpu %.2fs (n=%d, %d MiB)\n",
		script.Seconds(), rate(script), scriptCPU.Seconds(), runs, mb)
	fmt.Printf("tput: relay cat       median %.2fs %.0f MiB/s, cpu %.2fs\n", relay.Seconds(), rate(relay), relayCPU.Seconds())
	fmt.Printf("tput: relay/script    wall %.0f%%, cpu %.0f%% (target >= 90%%)\n",
		100*script.Seconds()/relay.Seconds(), 100*scriptCPU.Seconds()/relayCPU.Seconds())
	return nil
}

// sample is one run: wall time, and CPU time (user+system) of the process and every
// descendant it waited for, which the machine's other load disturbs far less than wall time.
type sample struct{ wall, cpu time.Duration }

// interleave runs each command once per round, for the given number of rounds, with stdin
// and stdout on /dev/null, and returns the samples per command.
func interleave(rounds int, cmds [][]string) ([][]sample, error) {
	out := make([][]sample, len(cmds))
	for range rounds {
		for i, argv := range cmds {
			s, err := timeOne(argv)
			if err != nil {
				return nil, err
			}
			out[i] = append(out[i], s)
		}
	}
	return out, nil
}

func timeOne(argv []string) (sample, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr // stdin and stdout stay /dev/null
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return sample{}, fmt.Errorf("run %s: %w", strings.Join(argv, " "), err)
	}
	wall := time.Since(start)
	return sample{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}, nil
}

func walls(s []sample) []time.Duration {
	return field(s, func(x sample) time.Duration { return x.wall })
}
func cpus(s []sample) []time.Duration { return field(s, func(x sample) time.Duration { return x.cpu }) }

func field(s []sample, f func(sample) time.Duration) []time.Duration {
	out := make([]time.Duration, len(s))
	for i, x := range s {
		out[i] = f(x)
	}
	return out
}

// writePayload writes size bytes of 99-character text lines, like an agent's output.
func writePayload(path string, size int64) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("create payload: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	line := []byte(strings.Repeat("relay throughput payload 0123456789 ", 3)[:99] + "\n")
	for n := int64(0); n < size; n += int64(len(line)) {
		_, _ = w.Write(line[:min(int64(len(line)), size-n)])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write payload: %w", err)
	}
	return f.Close()
}

func median(d []time.Duration) time.Duration { return pct(d, 50) }

// pct returns the p-th percentile (nearest rank) of d.
func pct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
