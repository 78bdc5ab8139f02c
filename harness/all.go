package harness

// registry is the explicit list of built-in harnesses (restic's backend/all
// model), in the order help texts and detection use. Adding a harness means
// one descriptor file (harness/<name>.go), one transcript source
// (transcript/<name>.go), one fake (harness/harnesstest), fixtures, and one
// line here. This file is the only one outside a harness's own files that
// may name it (see TestNoHarnessNamesOutsideTheirFiles).
var registry = newRegistry(
	claudeDescriptor(),
	codexDescriptor(),
	opencodeDescriptor(),
	geminiDescriptor(),
	piDescriptor(),
	qwenDescriptor(),
	ompDescriptor(),
	crushDescriptor(),
	grokDescriptor(),
	kiroDescriptor(),
	copilotDescriptor(),
	kimiDescriptor(),
	commandcodeDescriptor(),
	antigravityDescriptor(),
)
