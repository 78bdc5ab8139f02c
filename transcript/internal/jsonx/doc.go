// Package jsonx is the strict, allocation-light JSON scanner the transcript
// sources share: [Valid] checks a record once, then [Get], [Pick], [Fields]
// and [Elems] return raw slices of it and [String] unescapes only what is
// used.
package jsonx
