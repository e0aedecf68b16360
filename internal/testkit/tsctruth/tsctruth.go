// Package tsctruth runs a TypeScript compiler over a project the way
// `tsc --noEmit -p` does, so tests can hold what check says against what
// the repository's own compiler reports: the baseline's errors before an
// upgrade, and the new errors after a real one. It is used by tests only.
package tsctruth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"time"
)

// Error is one diagnostic as tsc prints it: the repository-relative file
// ("" for a global or options error), the 1-based line, the code and the
// flattened message.
type Error struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e Error) String() string { return fmt.Sprintf("%s:%d TS%d", e.File, e.Line, e.Code) }

// script builds the program tsc -p builds (the tsconfig's own file list and
// options, project references followed by tsc -b only, so not here) and
// prints the errors tsc prints, in its order of stops: syntax errors
// alone when there are any (a target whose declarations it cannot parse),
// else the options', global and semantic ones (emitFilesAndReportErrors).
const script = `
const ts = require(process.argv[1]);
const path = require('path');
const project = process.argv[2], root = process.argv[3];
const read = ts.readConfigFile(project, ts.sys.readFile);
if (read.error) { console.log(JSON.stringify({ fatal: ts.flattenDiagnosticMessageText(read.error.messageText, ' ') })); process.exit(0); }
const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(project), undefined, project);
const options = { ...parsed.options, noEmit: true };
const program = ts.createProgram({ rootNames: parsed.fileNames, options, projectReferences: parsed.projectReferences, configFileParsingDiagnostics: parsed.errors });
let all = parsed.errors.concat(program.getSyntacticDiagnostics());
if (all.length === parsed.errors.length) {
  all = all.concat(program.getOptionsDiagnostics(), program.getGlobalDiagnostics());
  if (all.length === parsed.errors.length) all = all.concat(program.getSemanticDiagnostics());
  if (options.declaration || options.composite) all = all.concat(program.getDeclarationDiagnostics());
}
const out = [];
for (const d of all) {
  if (d.category !== ts.DiagnosticCategory.Error) continue;
  let file = '', line = 0;
  if (d.file) {
    file = path.relative(root, d.file.fileName).split(path.sep).join('/');
    if (d.start !== undefined) line = d.file.getLineAndCharacterOfPosition(d.start).line + 1;
  }
  out.push({ file, line, code: d.code, message: ts.flattenDiagnosticMessageText(d.messageText, '\n') });
}
console.log(JSON.stringify({ errors: out }));
`

// Errors runs the compiler whose JavaScript API is typescriptJS
// (…/lib/typescript.js) on the tsconfig at project, with file names
// relative to root, sorted by file, line and code.
func Errors(ctx context.Context, typescriptJS, project, root string) ([]Error, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(absRoot); err == nil {
		absRoot = real
	}
	cmd := exec.CommandContext(ctx, "node", "-e", script, typescriptJS, project, absRoot)
	cmd.Dir = absRoot
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("tsc on %s: %v\n%s", project, err, stderr.String())
	}
	var ans struct {
		Fatal  string  `json:"fatal"`
		Errors []Error `json:"errors"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &ans); err != nil {
		return nil, fmt.Errorf("tsc on %s: %v: %s", project, err, stdout.String())
	}
	if ans.Fatal != "" {
		return nil, fmt.Errorf("tsc on %s: %s", project, ans.Fatal)
	}
	sort.SliceStable(ans.Errors, func(i, j int) bool {
		a, b := ans.Errors[i], ans.Errors[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Code < b.Code
	})
	return ans.Errors, nil
}

// In keeps the errors in the given repository-relative files.
func In(errs []Error, files []string) []Error {
	want := map[string]bool{}
	for _, f := range files {
		want[filepath.ToSlash(f)] = true
	}
	var out []Error
	for _, e := range errs {
		if want[e.File] {
			out = append(out, e)
		}
	}
	return out
}

// New is after minus before as multisets on file, code and message (lines
// move when a file's errors change), as check counts new errors.
func New(before, after []Error) []Error {
	type key struct {
		file, msg string
		code      int
	}
	left := map[key]int{}
	for _, e := range before {
		left[key{e.File, e.Message, e.Code}]++
	}
	var out []Error
	for _, e := range after {
		k := key{e.File, e.Message, e.Code}
		if left[k] > 0 {
			left[k]--
			continue
		}
		out = append(out, e)
	}
	return out
}
