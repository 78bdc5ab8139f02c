package sessionindex

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// planAgentsMD appends AgentsSection unless a line already holds its
// heading; the existing bytes are kept as they are.
func planAgentsMD(path string) (step, error) {
	fi, err := lstatRegular(path)
	if err != nil {
		return step{}, err
	}
	if fi == nil {
		return step{path: path, note: "create " + path + " with the \"Agent session tracking\" section", data: []byte(AgentsSection), mode: fileMode}, nil
	}
	old, err := os.ReadFile(path)
	if err != nil {
		return step{}, fmt.Errorf("install: read %s: %w", path, err)
	}
	if hasHeading(old) {
		return step{path: path, note: "unchanged " + path + " (section already present)"}, nil
	}
	data := append(append(bytes.Clone(old), separator(old)...), AgentsSection...)
	return step{path: path, note: "append the \"Agent session tracking\" section to " + path, data: data, mode: fi.Mode().Perm()}, nil
}

func hasHeading(md []byte) bool {
	for _, line := range strings.Split(string(md), "\n") {
		if strings.TrimRight(line, " \t\r") == agentsHeading {
			return true
		}
	}
	return false
}

// separator is what goes between existing text and the appended section so
// that the section starts after one blank line.
func separator(old []byte) string {
	switch {
	case len(old) == 0, bytes.HasSuffix(old, []byte("\n\n")):
		return ""
	case bytes.HasSuffix(old, []byte("\n")):
		return "\n"
	}
	return "\n\n"
}

func planDir(path string) (step, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return step{path: path, note: "create directory " + path, dir: true}, nil
	case err != nil:
		return step{}, fmt.Errorf("install: %w", err)
	case fi.Mode()&os.ModeSymlink != 0:
		return step{}, fmt.Errorf("install: %s is a symlink; refusing to install through it", path)
	case !fi.IsDir():
		return step{}, fmt.Errorf("install: %s exists and is not a directory", path)
	}
	return step{path: path}, nil
}

func planSkill(path string, upgrade bool) (step, error) {
	fi, err := lstatRegular(path)
	if err != nil {
		return step{}, err
	}
	if fi == nil {
		return step{path: path, note: "create " + path, data: skillMD, mode: fileMode}, nil
	}
	old, err := os.ReadFile(path)
	if err != nil {
		return step{}, fmt.Errorf("install: read %s: %w", path, err)
	}
	switch {
	case bytes.Equal(old, skillMD):
		return step{path: path, note: "unchanged " + path + " (up to date)"}, nil
	case !upgrade:
		return step{path: path, note: "unchanged " + path + " (differs from this ai-memory's skill; run install --upgrade to refresh it)"}, nil
	}
	return step{path: path, note: "refresh " + path + " from this ai-memory", data: skillMD, mode: fi.Mode().Perm()}, nil
}

// runPlan prints the plan and, unless it is a dry run or nothing changes,
// applies it in order (directories before the files inside them).
func runPlan(steps []step, o InstallOptions, w io.Writer) error {
	changes := 0
	fmt.Fprintln(w, "PLAN:")
	for _, s := range steps {
		fmt.Fprintf(w, "  %s\n", s.note)
		if s.changes() {
			changes++
		}
	}
	switch {
	case o.DryRun:
		_, err := fmt.Fprintln(w, "dry run: nothing written")
		return err
	case changes == 0:
		_, err := fmt.Fprintln(w, "already installed: nothing changed (install --upgrade refreshes the skill)")
		return err
	}
	for _, s := range steps {
		if err := apply(s); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "INSTALLED: %d change(s)\n", changes)
	return err
}

func apply(s step) error {
	switch {
	case s.dir:
		if err := os.Mkdir(s.path, dirMode); err != nil {
			return fmt.Errorf("install: create %s: %w", s.path, err)
		}
	case s.data != nil:
		if err := writeFileAtomic(s.path, s.data, s.mode); err != nil {
			return fmt.Errorf("install: write %s: %w", s.path, err)
		}
	}
	return nil
}
