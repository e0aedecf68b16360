package probe

import (
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// Site is how one usage meets the package at runtime, for the arbiter.
type Site struct {
	Loader model.Loader
	// Path is the member chain read from what the loader returned:
	// nil for the value itself (const x = require('p'); x()), ["red"] for
	// require('p').red or a named import { red }, ["default"] for a
	// default import, ["default", "red"] for its member. Only the first
	// two levels were probed; deeper members are judged by their prefix.
	Path []string
	// Access is what the site does with the last member: call, construct,
	// or anything else (a read).
	Access model.Access
	// Subpath is the entry the site loads ("./v4" for pkg/v4); "" or "."
	// is the main entry.
	Subpath string
}

// Hits lists the runtime changes a site meets, and whether the probe can
// decide for it at all: not when it did not compare the copies, nor when
// the installed copy gave the site's loader nothing (there was no shape
// to lose). A decided site with no hits loads the same shape on the
// target.
func Hits(res model.RuntimeResult, s Site) ([]model.RuntimeChange, bool) {
	if res.Status != model.RuntimeCompared {
		return nil, false
	}
	sub := s.Subpath
	if sub == "." {
		sub = ""
	}
	// A subpath entry decides only when both copies loaded it to an
	// answer (the probe was asked for it, nothing cut it short).
	ie, iok := res.Installed.Entry(sub)
	te, tok := res.Target.Entry(sub)
	if !iok || !tok || ie.Inconclusive != "" || te.Inconclusive != "" || !ie.Load(s.Loader).Got() {
		return nil, false
	}
	path := s.Path
	if len(path) > 2 || (len(path) == 2 && (s.Loader != model.LoaderImport || path[0] != "default")) {
		path = path[:1]
	}
	key := strings.Join(path, ".")
	var out []model.RuntimeChange
	// A site reading the loaded value itself (passing it on, indexing it
	// with a computed key: httpStatus[code]) reaches members the probe
	// cannot name: when the value lost keys, it neither hits nor is ruled
	// out.
	valueRead := len(path) == 0 && s.Access != model.AccessCall && s.Access != model.AccessConstruct
	for _, c := range res.Changes {
		if c.Loader != s.Loader || c.Subpath != sub {
			continue
		}
		switch c.Kind {
		case model.RuntimeRequireThrows, model.RuntimeImportThrows:
			out = append(out, c)
		case model.RuntimeNamespaceInstead:
			// The module value itself: calling or constructing it breaks.
			if len(path) == 0 && (s.Access == model.AccessCall || s.Access == model.AccessConstruct) {
				out = append(out, c)
			}
		case model.RuntimeKeyRemoved:
			// A removed member breaks every site reading it or below it.
			if key != "" && (c.Key == key || strings.HasPrefix(key, c.Key+".")) {
				out = append(out, c)
			}
			if valueRead && !strings.Contains(c.Key, ".") {
				return nil, false
			}
		case model.RuntimeCallableLost:
			if c.Key == key && s.Access == model.AccessCall {
				out = append(out, c)
			}
		case model.RuntimeConstructableLost:
			if c.Key == key && s.Access == model.AccessConstruct {
				out = append(out, c)
			}
		}
	}
	return out, true
}
