//go:build !unix

package harnesstest

import "fmt"

// killSelf is not supported off Unix; FAKE_KILL fails the run instead.
func killSelf(name string) error { return fmt.Errorf("FAKE_KILL=%s needs a Unix system", name) }
