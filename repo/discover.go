package repo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// location is where discovery found the repository of a directory.
type location struct {
	root      string // canonical worktree top-level (the bare dir for a bare repo)
	gitDir    string // canonical git dir of this worktree
	commonDir string // canonical common dir shared by all worktrees
}

// maxGitFileSize bounds the .git, commondir and config files we read: real
// ones are tiny, and a huge one is not a git file.
const maxGitFileSize = 64 << 10

// discover walks up from start (canonical) the way git does, without
// running git: at each level it checks for a .git entry, then for a bare
// repository. It reports found=false when it reaches the filesystem root.
func discover(start string) (location, bool, error) {
	for d := start; ; {
		loc, found, err := probe(d)
		if err != nil || found {
			return loc, found, err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return location{}, false, nil
		}
		d = parent
	}
}

// probe checks one directory level. A .git directory that is not a valid
// git dir is skipped, as git does; a .git file that points nowhere is an
// error, because git itself refuses to work there.
func probe(d string) (location, bool, error) {
	dotgit := filepath.Join(d, ".git")
	fi, err := os.Stat(dotgit)
	switch {
	case err == nil && fi.IsDir():
		if loc, ok := fromGitDir(d, dotgit); ok {
			return loc, true, nil
		}
	case err == nil && fi.Mode().IsRegular():
		return fromGitFile(d, dotgit)
	case err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission):
		return location{}, false, fmt.Errorf("identify workstream: inspect %s: %w", dotgit, err)
	}
	if isBareRepo(d) {
		if loc, ok := fromGitDir(d, d); ok {
			return loc, true, nil
		}
	}
	return location{}, false, nil
}

// fromGitFile follows a `gitdir: <path>` file (linked worktree or
// submodule). A relative path is relative to the directory of the file.
func fromGitFile(root, file string) (location, bool, error) {
	target, err := readGitFile(file)
	if err != nil {
		return location{}, false, fmt.Errorf("identify workstream: %w; fix or remove that file (for a deleted worktree run `git worktree prune`)", err)
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(root, target)
	}
	loc, ok := fromGitDir(root, target)
	if !ok {
		return location{}, false, fmt.Errorf("identify workstream: %s points to %s, which is not a git directory; run `git worktree prune` or fix the file", file, target)
	}
	return loc, true, nil
}

// readGitFile returns the path named by a .git file.
func readGitFile(file string) (string, error) {
	data, err := readSmallFile(file)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	line = strings.TrimRight(line, "\r")
	path, ok := strings.CutPrefix(line, "gitdir: ")
	if !ok || strings.TrimSpace(path) == "" {
		return "", fmt.Errorf("%s is not a valid gitfile (want `gitdir: <path>`)", file)
	}
	return strings.TrimSpace(path), nil
}

// fromGitDir validates gitDir like git's is_git_directory (HEAD in the git
// dir, objects/ and refs/ in the common dir) and canonicalises both dirs.
func fromGitDir(root, gitDir string) (location, bool) {
	gitDir, err := canonicalPath(gitDir)
	if err != nil || !isFile(filepath.Join(gitDir, "HEAD")) {
		return location{}, false
	}
	common, err := commonDirOf(gitDir)
	if err != nil || !isDir(filepath.Join(common, "objects")) || !isDir(filepath.Join(common, "refs")) {
		return location{}, false
	}
	return location{root: root, gitDir: gitDir, commonDir: common}, true
}

// commonDirOf resolves <gitDir>/commondir (relative to gitDir) when present,
// else returns gitDir itself.
func commonDirOf(gitDir string) (string, error) {
	data, err := readSmallFile(filepath.Join(gitDir, "commondir"))
	if errors.Is(err, fs.ErrNotExist) {
		return gitDir, nil
	}
	if err != nil {
		return "", err
	}
	p := strings.TrimSpace(string(data))
	if p == "" {
		return gitDir, nil
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(gitDir, p)
	}
	return canonicalPath(p)
}

// isBareRepo reports whether d is itself a git directory whose config says
// core.bare = true. The .git dir of a normal checkout is not bare, so a cwd
// inside it keeps walking up to its worktree.
func isBareRepo(d string) bool {
	if !isFile(filepath.Join(d, "HEAD")) || isFile(filepath.Join(d, "commondir")) {
		return false
	}
	data, err := readSmallFile(filepath.Join(d, "config"))
	return err == nil && configIsBare(data)
}

// configIsBare finds `bare = <true>` in the [core] section of a git config.
// It is a minimal reader: no includes, no quoting beyond git's defaults.
func configIsBare(data []byte) bool {
	inCore := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			inCore = strings.EqualFold(strings.TrimSpace(strings.Trim(line, "[]")), "core")
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !inCore || !ok || !strings.EqualFold(strings.TrimSpace(key), "bare") {
			continue
		}
		val, _, _ = strings.Cut(val, "#")
		val, _, _ = strings.Cut(val, ";")
		switch strings.ToLower(strings.TrimSpace(val)) {
		case "true", "yes", "on", "1":
			return true
		}
		return false
	}
	return false
}

func readSmallFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxGitFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > maxGitFileSize {
		return nil, fmt.Errorf("read %s: larger than %d bytes", path, maxGitFileSize)
	}
	return data, nil
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
