// Package demoprovider is the assisted fixer's provider in `uptide demo`:
// scripted replies for the react 19 sites of the bundled demo repository,
// so the whole review flow (proposals, validation, accept, reject, retry,
// the hand-off to fix) runs with no model, no key and no network. Its
// replies are the structured JSON a model is asked for and go through the
// same checks; each costs nothing.
package demoprovider

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/uptide/uptide/fix/assist"
	"github.com/uptide/uptide/fix/unidiff"
	"github.com/uptide/uptide/fixtures"
)

// Name is what the screen and the fix report call the provider.
const Name = "scripted demo provider (no model, no key)"

// Reply is one scripted answer: the file's text replaced as a model's
// diff would, and its explanation.
type Reply struct {
	// Old and New are whole lines of the file (several joined by \n),
	// each Old occurring once.
	Edits       []Edit
	Explanation string
}

// Edit replaces Old by New in the file.
type Edit struct{ Old, New string }

// Script is the replies for one site: the first attempt's, and the one a
// retry (a later attempt, or a hint) gets.
type Script struct {
	File string
	// Code is the TypeScript error code the site stands for.
	Code  int
	First Reply
	Retry Reply
}

// Scripts are the react 18 → 19 sites of the demo repository (react
// 19.0.0 with @types/react 19.0.0 and @types/react-dom 19.0.1): the
// global JSX namespace, useRef's required argument (which the react
// pack's rule edit fixes before the queue opens, when it applies) and
// render's removal. The first proposal for the JSX site is deliberately
// weak (it compiles by giving up the return type), for the user to
// reject; a retry, or a hint, gets React.JSX.Element.
var Scripts = []Script{
	{
		File: "packages/web/src/App.tsx", Code: 2503,
		First: Reply{
			Edits: []Edit{{Old: "export function App(props: { upload?: Upload }): JSX.Element {",
				New: "export function App(props: { upload?: Upload }): any {"}},
			Explanation: "React 19's types no longer declare the global JSX namespace, so the return type becomes any. " +
				"This compiles, but nothing checks what App returns any more: a weak fix.",
		},
		Retry: Reply{
			Edits: []Edit{{Old: "export function App(props: { upload?: Upload }): JSX.Element {",
				New: "export function App(props: { upload?: Upload }): React.JSX.Element {"}},
			Explanation: "React 19 moved the JSX namespace into React: the return type is React.JSX.Element, " +
				"the same type under its new name.",
		},
	},
	{
		File: "packages/web/src/App.tsx", Code: 2554,
		First: Reply{
			Edits:       []Edit{{Old: "useRef<HTMLInputElement>()", New: "useRef<HTMLInputElement>(null)"}},
			Explanation: "useRef needs an initial value in React 19: the ref starts as null, and React sets it on mount.",
		},
	},
	{
		File: "packages/web/src/main.tsx", Code: 2305,
		First: Reply{
			Edits: []Edit{
				{Old: `import { render } from "react-dom";`, New: `import { createRoot } from "react-dom/client";`},
				{Old: `render(<App />, document.getElementById("root"));`, New: `createRoot(document.getElementById("root")!).render(<App />);`},
			},
			Explanation: "React 19 removed render from react-dom: the root API in react-dom/client replaces it. " +
				"createRoot takes the container (the page always has #root, hence the !) and renders App into it.",
		},
	},
}

// Provider answers from Scripts. It is safe for concurrent use.
type Provider struct {
	read func(file string) (string, error)
}

var _ assist.Provider = (*Provider)(nil)

// New is the provider over the files read gives (the upgraded clone's,
// as the fixer reads them: a rule edit there is in the diff's context);
// nil reads the demo repository as embedded.
func New(read func(file string) (string, error)) *Provider {
	if read == nil {
		read = func(file string) (string, error) {
			data, err := fs.ReadFile(fixtures.DemoRepo(), file)
			return string(data), err
		}
	}
	return &Provider{read: read}
}

// Name says it is scripted.
func (p *Provider) Name() string { return Name }

// Reserve is nothing: a scripted reply costs nothing.
func (p *Provider) Reserve(assist.Request) float64 { return 0 }

// Complete answers a site of Scripts with its diff against the demo
// repository's file; any other site is an error saying the provider only
// knows the demo's sites (the fixer shows it as the site's reason).
func (p *Provider) Complete(ctx context.Context, req assist.Request) (assist.Reply, error) {
	if err := ctx.Err(); err != nil {
		return assist.Reply{}, err
	}
	s, ok := scriptFor(req.Site)
	if !ok {
		return assist.Reply{}, fmt.Errorf("no scripted reply for %s:%d: the demo's provider only knows the react 19 sites of the demo repository",
			req.Site.File, req.Site.Line)
	}
	r := s.First
	explanation := r.Explanation
	if (req.Attempt > 1 || req.Hint != "") && len(s.Retry.Edits) > 0 {
		r = s.Retry
		explanation = r.Explanation
		if req.Hint != "" {
			explanation = "With your hint (" + strings.TrimSpace(req.Hint) + "): " + explanation
		}
	}
	diff, err := p.Diff(s.File, r)
	if err != nil {
		return assist.Reply{}, err
	}
	text, err := json.Marshal(assist.Structured{Diff: diff, Explanation: explanation})
	if err != nil {
		return assist.Reply{}, err
	}
	return assist.Reply{Text: string(text)}, nil
}

// Diff is the unified diff of r's edits of file as read.
func (p *Provider) Diff(file string, r Reply) (string, error) {
	before, err := p.read(file)
	if err != nil {
		return "", fmt.Errorf("the scripted demo provider cannot read %s: %w", file, err)
	}
	after := before
	for _, e := range r.Edits {
		if n := strings.Count(after, e.Old); n != 1 {
			return "", fmt.Errorf("the scripted edit of %s expects %q once, found it %d times", file, e.Old, n)
		}
		after = strings.Replace(after, e.Old, e.New, 1)
	}
	return unidiff.Make(file, before, after, 3), nil
}

// scriptFor is the script of the site: its file and one of its errors'
// codes.
func scriptFor(site assist.Site) (Script, bool) {
	for _, s := range Scripts {
		if s.File != site.File {
			continue
		}
		for _, d := range site.Errors {
			if d.Code == s.Code {
				return s, true
			}
		}
	}
	return Script{}, false
}
