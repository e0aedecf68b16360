package check

import (
	"sort"
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine/match"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
	"github.com/uptide/uptide/engine/typescript"
)

// deprecatedKeyFindings are the deprecated uses only the overlay sees: the
// object-literal keys whose property the member's target declares
// @deprecated and the baseline did not (typescript.DeprecatedKey). Each
// key is named by the target surface's path of its declaration and joined
// like any deprecation, so it reads, counts and falls under pack rules as
// the diff's own do ("$ZodCheckParams#message is deprecated"). A key the
// join already reported deprecated, or whose declaration the target's
// public surface does not reach, adds nothing.
func deprecatedKeyFindings(r *memberRun, ws string, keys []typescript.DeprecatedKey, have []model.Finding) []model.Finding {
	if r.tgt == nil || len(keys) == 0 {
		return nil
	}
	at := symbolsByPlace(r.tgt)
	reported := map[string]bool{}
	for _, f := range have {
		if f.Change == string(model.ChangeDeprecated) {
			reported[placeKey(f.File, f.Line, f.Column)] = true
		}
	}
	changes := map[string]model.Change{}
	var usages []model.Usage
	for _, k := range keys {
		if k.Package != r.linkName || reported[placeKey(k.File, k.Line, k.Column)] {
			continue
		}
		p, sym := keyPath(at, k)
		if sym == nil {
			continue
		}
		if _, ok := changes[p]; !ok {
			c := model.Change{Path: p, Kind: model.ChangeDeprecated, Severity: model.Deprecated, Confidence: 1,
				SymbolKind: sym.Kind, Note: strings.TrimSpace(k.Message), Rule: string(model.ChangeDeprecated)}
			if sym.Deprecated != nil {
				c.Note, c.Replacement = strings.TrimSpace(sym.Deprecated.Message), sym.Deprecated.Replacement
			}
			changes[p] = c
		}
		access := model.AccessWrite
		if k.Access == string(model.AccessImplement) {
			access = model.AccessImplement
		}
		usages = append(usages, model.Usage{
			Workspace: ws, File: k.File, Line: k.Line, Column: k.Column, Start: k.Start, End: k.End,
			SymbolPath: p, CanonicalPath: p, Access: access, Via: model.ViaDirect, Checked: true,
		})
	}
	if len(usages) == 0 {
		return nil
	}
	cs := make([]model.Change, 0, len(changes))
	for _, c := range changes {
		cs = append(cs, c)
	}
	return match.Match(cs, usages, r.tgt, match.Options{Package: r.m.name()})
}

// keyPath names a deprecated key: as a member of the type it was typed by
// when the surface has that type (zod 4 declares message once, in its
// generic Params, for every params type: .min's key is
// $ZodCheckMinLengthParams#message, not the first type the declaration
// happens to be reached through), else by the path of its declaration.
// sym is the surface's symbol of the declaration (its deprecation), nil
// when the surface does not reach it.
func keyPath(at map[string]*model.Symbol, k typescript.DeprecatedKey) (string, *model.Symbol) {
	sym := at[k.DeclFile+":"+strconv.Itoa(k.DeclPos)]
	if sym == nil {
		return "", nil
	}
	if k.ContainerFile != "" {
		if c := at[k.ContainerFile+":"+strconv.Itoa(k.ContainerPos)]; c != nil {
			if cp, err := path.Parse(canonicalPath(c)); err == nil {
				return cp.Instance(k.Name).String(), sym
			}
		}
	}
	return canonicalPath(sym), sym
}

func canonicalPath(s *model.Symbol) string {
	if s.AliasOf != "" {
		return s.AliasOf
	}
	return s.Path
}

// deprecatedNames are the member names the members' targets mark
// @deprecated, sorted: the only keys the overlay needs to judge (a key
// the surface does not reach names nothing, see keyPath).
func deprecatedNames(runs []*memberRun) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range runs {
		if !r.ok || r.tgt == nil || r.tgtDir == "" {
			continue
		}
		for _, s := range r.tgt.Symbols {
			if s.Deprecated == nil {
				continue
			}
			p, err := path.Parse(s.Path)
			if err != nil {
				continue
			}
			if l := p.Leaf(); l.Kind == path.Name && len(p.Segments) > 1 && !seen[l.Name] {
				seen[l.Name] = true
				out = append(out, l.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// symbolsByPlace indexes a surface's symbols by where they are declared
// (file:pos), the canonical one of each place: no alias, then the
// shortest path.
func symbolsByPlace(s *model.Surface) map[string]*model.Symbol {
	out := map[string]*model.Symbol{}
	for i := range s.Symbols {
		sym := &s.Symbols[i]
		if sym.File == "" {
			continue
		}
		k := sym.File + ":" + strconv.Itoa(sym.Pos)
		if cur := out[k]; cur == nil || canonicalBefore(sym, cur) {
			out[k] = sym
		}
	}
	return out
}

func canonicalBefore(a, b *model.Symbol) bool {
	if (a.AliasOf == "") != (b.AliasOf == "") {
		return a.AliasOf == ""
	}
	if len(a.Path) != len(b.Path) {
		return len(a.Path) < len(b.Path)
	}
	return a.Path < b.Path
}

func placeKey(file string, line, column int) string {
	return file + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(column)
}
