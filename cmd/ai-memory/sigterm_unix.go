//go:build !windows

package main

import "syscall"

// sigTerm is the polite stop signal of `ai-memory ui`.
var sigTerm = syscall.SIGTERM
