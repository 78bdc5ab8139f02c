package main

import "os"

// sigTerm: Windows has no SIGTERM; Ctrl-C (os.Interrupt) stops the ui.
var sigTerm = os.Interrupt
