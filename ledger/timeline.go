package ledger

// RunSpan is a run with the sequence range of the events it appended (its
// imports, checkpoint and notes). FirstSequence is 0 when it appended none.
type RunSpan struct {
	Run
	FirstSequence, LastSequence int64
}

// Events is how many events the run appended (sequences are dense).
func (r RunSpan) Events() int64 {
	if r.FirstSequence == 0 {
		return 0
	}
	return r.LastSequence - r.FirstSequence + 1
}
