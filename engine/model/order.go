package model

import "cmp"

// The canonical orders of the records several analyses produce, so that
// every producer sorts one way and equal inputs give identical output
// whatever the order they were found in.

// CompareDiagnostics orders diagnostics by place (file, offset, line,
// column), then code, message, length and workspace.
func CompareDiagnostics(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Start, b.Start),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Code, b.Code),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.Length, b.Length),
		cmp.Compare(a.Workspace, b.Workspace),
	)
}

// CompareUsages orders usages by place (file, offset, line, column, end),
// then the name written, its canonical target, the access and the way in.
func CompareUsages(a, b Usage) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Start, b.Start),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.End, b.End),
		cmp.Compare(a.SymbolPath, b.SymbolPath),
		cmp.Compare(a.CanonicalPath, b.CanonicalPath),
		cmp.Compare(a.Access, b.Access),
		cmp.Compare(a.Via, b.Via),
	)
}

// Rank orders severities from least to most serious: additive, info,
// deprecated, unverified (possible impact), breaking; 0 for none.
func (s Severity) Rank() int {
	switch s {
	case Breaking:
		return 5
	case Unverified:
		return 4
	case Deprecated:
		return 3
	case Info:
		return 2
	case Additive:
		return 1
	}
	return 0
}
