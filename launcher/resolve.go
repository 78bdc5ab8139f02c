package launcher

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ai-memory/ai-memory/harness"
)

// resolveExecutable returns the absolute path to spawn for h. A value with a
// path separator is used as given (made absolute); a bare name is looked up
// on PATH only, so a same-named file in the checkout is never run by
// accident (exec.LookPath refuses relative PATH entries).
func resolveExecutable(h harness.Descriptor, override string, lookPath func(string) (string, error)) (string, error) {
	name := override
	if name == "" {
		name = h.Executable
	}
	if strings.ContainsRune(name, os.PathSeparator) || strings.Contains(name, "/") {
		return checkExecutable(h, name)
	}
	p, err := lookPath(name)
	if err != nil {
		return "", notFound(h, name, override != "")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", wrapperError("resolve executable", err)
	}
	return abs, nil
}

func checkExecutable(h harness.Descriptor, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", wrapperError("resolve executable", err)
	}
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", notFound(h, abs, true)
	}
	if err != nil {
		return "", &Error{Code: CodeNoExec, Err: fmt.Errorf("cannot use %s: %w", abs, err)}
	}
	if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return "", &Error{Code: CodeNoExec, Err: fmt.Errorf("%s is not an executable file; pass --executable with the path of the %s binary", abs, h.Name)}
	}
	return abs, nil
}

func notFound(h harness.Descriptor, name string, explicit bool) error {
	if explicit {
		return &Error{Code: CodeNotFound, Err: fmt.Errorf("%s executable %q not found; check the --executable value", h.Name, name)}
	}
	hint := "install it"
	if h.Install != "" {
		hint = fmt.Sprintf("install %s (%s)", h.Product, h.Install)
	}
	return &Error{Code: CodeNotFound, Err: fmt.Errorf("%s not found on PATH; %s, or pass --executable PATH", name, hint)}
}

// available reports whether h's default executable is on PATH.
func available(h harness.Descriptor, lookPath func(string) (string, error)) bool {
	_, err := lookPath(h.Executable)
	return err == nil
}

// defaultLookPath is exec.LookPath; tests replace it through Env.
var defaultLookPath = exec.LookPath
