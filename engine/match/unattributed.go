package match

import (
	"fmt"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// messageLimit is how much of a compiler message a grouped finding quotes.
const messageLimit = 160

// NormalizeMessage is the grouping key of a compiler message: its first
// line with every quoted span replaced by '_' and runs of blanks collapsed,
// so "Type 'A' is not assignable to type 'B'." and the same error about C
// and D group together. An unclosed quote is kept as written.
func NormalizeMessage(msg string) string {
	if i := strings.IndexAny(msg, "\r\n"); i >= 0 {
		msg = msg[:i]
	}
	var b strings.Builder
	b.Grow(len(msg))
	for i := 0; i < len(msg); {
		if msg[i] == '\'' {
			if j := strings.IndexByte(msg[i+1:], '\''); j >= 0 {
				b.WriteString("'_'")
				i += j + 2
				continue
			}
		}
		b.WriteByte(msg[i])
		i++
	}
	return collapseBlanks(b.String())
}

// collapseBlanks turns every run of whitespace into one space and trims.
func collapseBlanks(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// quoteMessage is the message as a report shows it: verbatim, blanks
// collapsed, cut at messageLimit characters.
func quoteMessage(msg string) string {
	msg = collapseBlanks(msg)
	n := 0
	for i := range msg {
		if n == messageLimit {
			return msg[:i] + "…"
		}
		n++
	}
	return msg
}

// quotedSpans are the texts between single quotes in a message.
func quotedSpans(msg string) []string {
	var out []string
	for {
		i := strings.IndexByte(msg, '\'')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(msg[i+1:], '\'')
		if j < 0 {
			return out
		}
		out = append(out, msg[i+1:i+1+j])
		msg = msg[i+j+2:]
	}
}

// declarationKinds are the symbols a message can name as a type.
var declarationKinds = map[model.SymbolKind]bool{
	model.KindClass: true, model.KindInterface: true, model.KindTypeAlias: true, model.KindEnum: true,
	model.KindNamespace: true, model.KindFunction: true, model.KindVariable: true,
}

// unresolvedNames maps the names a message could use for a declaration in
// a target file with unresolved imports (its path and its own name) to
// that file.
func (a *arbiter) unresolvedNames() map[string]string {
	if len(a.opts.Compile.UnresolvedTargetFiles) == 0 || a.opts.Target == nil {
		return nil
	}
	m := map[string]string{}
	put := func(name, file string) {
		if old, ok := m[name]; !ok || file < old {
			m[name] = file
		}
	}
	for _, s := range a.opts.Target.Symbols {
		if !declarationKinds[s.Kind] || !a.opts.Compile.UnresolvedTargetFiles[s.File] {
			continue
		}
		put(s.Path, s.File)
		if i := strings.LastIndexAny(s.Path, ".#"); i >= 0 {
			put(s.Path[i+1:], s.File)
		}
	}
	return m
}

// unattributedFindings makes one finding per workspace, file and group of
// diagnostics no change explains (same code, same message shape, same
// verdict). A finding keeps its workspace and its file, each diagnostic its
// own line as evidence; the plan gathers the files' findings under one rule
// per code and message shape. Folding files together would leave a finding
// that stands nowhere: no file to open, no workspace to run in, and an id
// that changes whenever another file gains or loses the same error.
func (a *arbiter) unattributedFindings(diags []model.Diagnostic) []model.Finding {
	names := a.unresolvedNames()
	type group struct {
		row        string
		name, file string
		diags      []model.Diagnostic
	}
	groups := map[string]*group{}
	var keys []string
	for _, d := range diags {
		if d.Workspace == "" {
			d.Workspace = a.opts.Workspace
		}
		row, name, file := "arbiter/unattributed", "", ""
		if a.unchecked[d.File] {
			row = "arbiter/unattributed-unchecked"
		} else if names != nil {
		spans:
			for _, span := range quotedSpans(d.Message) {
				for _, n := range namedTypes(span) {
					if f, ok := names[n]; ok {
						row, name, file = "arbiter/unattributed-unresolved", n, f
						break spans
					}
				}
			}
		}
		key := fmt.Sprintf("%s\x00%s\x00%d\x00%s\x00%s", d.Workspace, d.File, d.Code, NormalizeMessage(d.Message), row)
		g := groups[key]
		if g == nil {
			g = &group{row: row, name: name, file: file}
			groups[key] = g
			keys = append(keys, key)
		}
		g.diags = append(g.diags, d)
	}
	sort.Strings(keys)
	out := make([]model.Finding, 0, len(keys))
	for _, k := range keys {
		g := groups[k]
		first := g.diags[0]
		f := model.Finding{
			Package:   a.opts.Package,
			Change:    fmt.Sprintf("TS%d", first.Code),
			Workspace: first.Workspace,
			File:      first.File,
			Line:      first.Line,
			Column:    first.Column,
			Evidence:  g.diags,
			Similar:   len(g.diags) - 1,
			Rule:      fmt.Sprintf("TS%d %s", first.Code, NormalizeMessage(first.Message)),
		}
		for _, d := range g.diags {
			if d.Root != nil {
				f.Root = rootRef(*d.Root)
				break
			}
		}
		msg := quoteMessage(first.Message)
		if f.Similar > 0 {
			msg += fmt.Sprintf(" (%d similar)", f.Similar)
		}
		arbiterRow(g.row).apply(&f, "{message}", msg, "{name}", g.name, "{file}", g.file)
		f.Fixability, _ = FixabilityOf(FixInput{Change: f.Change, Severity: f.Severity})
		out = append(out, f)
	}
	return out
}
