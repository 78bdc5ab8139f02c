package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/transcript"
)

// harnessChecks checks one registered harness: its executable and version,
// its store, and (through its descriptor) whether per-run delivery can
// work. A harness that is not installed is information, not a failure.
func harnessChecks(ctx context.Context, env doctorEnv, d harness.Descriptor) []check {
	var out []check
	exe, err := exec.LookPath(d.Executable)
	if err != nil {
		out = append(out, newCheck(harness.LevelInfo, d.Name+".executable",
			fmt.Sprintf("%s not installed (%s not on PATH; install: %s)", d.Product, d.Executable, d.Install), nil))
	} else {
		out = append(out, newCheck(harness.LevelOK, d.Name+".executable", exe, map[string]any{"path": exe}))
	}
	version := ""
	if exe != "" {
		var c check
		version, c = versionCheck(ctx, env, d, exe)
		out = append(out, c)
	}
	out = append(out, storeCheck(env, d))
	if exe != "" && d.Check != nil {
		ce := harness.CheckEnv{Home: env.home, Getenv: env.getenv, Project: env.project, Cwd: env.cwd, Executable: exe, Version: version}
		for _, f := range d.Check(ce) {
			out = append(out, newCheck(f.Level, d.Name+"."+f.Check, f.Detail, nil))
		}
	}
	for i := range out {
		out[i].Harness = d.Name
	}
	return out
}

// versionCheck probes the installed version and compares it with the
// versions the descriptor was checked against: newer is a warning (flags
// or the transcript format may have changed), unknown is a warning too.
func versionCheck(ctx context.Context, env doctorEnv, d harness.Descriptor, exe string) (string, check) {
	name := d.Name + ".version"
	last := d.LastTested()
	v, line, err := d.ProbeVersion(ctx, exe, env.probeTimeout)
	data := map[string]any{"version": v, "tested": d.Tested}
	switch {
	case err != nil && line != "" && errors.Is(err, harness.ErrNoVersion):
		return "", newCheck(harness.LevelWarn, name, fmt.Sprintf("no version in %q; tested: %s", line, strings.Join(d.Tested, ", ")), data)
	case err != nil:
		return "", newCheck(harness.LevelWarn, name, fmt.Sprintf("version unknown: %v", err), data)
	case last != "" && harness.CompareVersions(v, last) > 0:
		return v, newCheck(harness.LevelWarn, name, fmt.Sprintf(
			"%s is newer than the last version ai-memory was tested with (%s): its flags or transcript format may have changed; report problems with both versions", v, last), data)
	}
	return v, newCheck(harness.LevelOK, name, fmt.Sprintf("%s (tested: %s)", v, strings.Join(d.Tested, ", ")), data)
}

// storeCheck looks at the harness's native store: not there yet is
// information; there but unreadable (or this checkout's sessions cannot be
// listed) is a failure, because nothing could be imported.
func storeCheck(env doctorEnv, d harness.Descriptor) check {
	name := d.Name + ".store"
	tenv := transcript.Env{Home: env.home, Getenv: env.getenv}
	root := d.Source.StoreRoot(tenv)
	data := map[string]any{"path": root}
	st, err := os.Stat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return newCheck(harness.LevelInfo, name, root+" not found (created when "+d.Product+" first runs)", data)
	case err != nil:
		return newCheck(harness.LevelFail, name, fmt.Sprintf("cannot read %s: %v", root, err), data)
	case !st.IsDir():
		return newCheck(harness.LevelFail, name, root+" is not a directory", data)
	}
	if _, err := os.ReadDir(root); err != nil {
		return newCheck(harness.LevelFail, name, fmt.Sprintf("cannot read %s: %v", root, err), data)
	}
	ss, err := d.Source.List(tenv, env.project, 0)
	if err != nil {
		return newCheck(harness.LevelFail, name, fmt.Sprintf("%s: %v", root, err), data)
	}
	data["sessions"] = len(ss)
	return newCheck(harness.LevelOK, name, fmt.Sprintf("%s (%s of this project)", root, plural(int64(len(ss)), "session")), data)
}
