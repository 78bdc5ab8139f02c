// Package agentproc runs an agent CLI as a child process and reports how it ended.
//
// # Modes
//
// When the caller's stdin is a terminal (Spec.PTY, decided with IsTerminal), the child runs
// under a fresh pseudo-terminal: it is a session leader whose controlling terminal is the PTY,
// so its process-group id equals its pid. The user's terminal is put in raw mode only after the
// child started, and Start relays bytes both ways. Otherwise (and always on Windows) the child
// inherits stdin, stdout and stderr and shares the launcher's process group.
//
// # Signals
//
// While the child runs, the launcher catches SIGINT, SIGTERM, SIGHUP and SIGQUIT so that it does
// not die before the child (it must still import the transcript and release its lease).
//
//   - PTY mode: keyboard Ctrl-C, Ctrl-\ and Ctrl-Z arrive as bytes (the user's terminal is raw)
//     and the PTY's own line discipline turns them into signals for the child. Any of the four
//     signals the launcher receives therefore came from kill(2) or a hangup, never from the
//     keyboard, and is forwarded to the child's process group (kill(-pid, sig)). Nothing is
//     forwarded twice. SIGWINCH copies the user's terminal size onto the PTY. SIGPIPE is caught
//     (not forwarded) so that a closed stdout pipe cannot kill the launcher while the terminal
//     is raw.
//   - Inherited stdio: the child is in the launcher's process group. SIGTERM and SIGHUP are
//     forwarded to the child's pid. SIGINT and SIGQUIT are forwarded only when the launcher is
//     NOT in the foreground process group of a controlling terminal: if it is, the signal came
//     from the keyboard and the terminal already delivered it to the child as well.
//
// Forwarding stops as soon as the child has exited (before it is reaped, on Linux), so a
// recycled pid is never signalled.
//
// # Terminal state and stdin
//
// Raw mode is restored exactly once (Restore is idempotent): by Wait, by the caller's deferred
// Restore, or by the recover wrapper of every goroutine this package starts, which restores and
// then re-panics. Fatal runtime errors and SIGKILL cannot be caught; `stty sane` repairs those.
//
// The stdin -> PTY copy never blocks in read(2): it waits with poll(2) (select(2) outside Linux)
// on stdin plus a self-pipe, and reads only when stdin is readable. Wait closes the pipe, so the
// goroutine ends without consuming the user's next keystroke and the launcher can keep running.
// O_NONBLOCK is never set on stdin, because that flag lives on the open file description shared
// with the parent shell. The PTY master is ours alone, so it is non-blocking.
//
// # Exit status
//
// Status.Code is the child's exit code, or 128+N when signal N killed it (the shell rule;
// os.ProcessState.ExitCode reports -1 there). A child that cannot be started yields a
// *StartError: 127 when the file does not exist, 126 when it is not executable, 125 otherwise.
package agentproc
