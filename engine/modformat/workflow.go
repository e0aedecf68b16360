package modformat

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// ciVersion is one Node version a workflow runs.
type ciVersion struct {
	version string
	// written is the value as the workflow writes it (after matrix or env
	// substitution: "20", "22.x", "lts/*").
	written string
	line    int
	// matrix is set when the value came from a strategy matrix.
	matrix bool
	// container: the version came from a job's container image.
	container bool
}

// ciWorkflow is what one workflow file says about Node.
type ciWorkflow struct {
	versions []ciVersion
	// files are node-version-file inputs (".nvmrc"), relative to the
	// repository root, for the caller to read.
	files []ciFile
	// unresolved are node-version values no substitution could answer
	// (${{ vars.NODE }}, fromJSON(...)), kept for the note.
	unresolved []string
}

type ciFile struct {
	path string
	line int
}

var ghExpr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// parseWorkflow reads a GitHub Actions workflow: every actions/setup-node
// step's node-version (expanding ${{ matrix.x }}, ${{ matrix.x.y }} over a
// job's strategy matrix and its include entries, and ${{ env.X }} from the
// job's or workflow's env) and node-version-file, and every job container
// built on a Node image. name is used in errors only.
func parseWorkflow(name string, data []byte) (ciWorkflow, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return ciWorkflow{}, fmt.Errorf("%s: not valid YAML (%v): fix the workflow or remove it", name, err)
	}
	var out ciWorkflow
	root := docRoot(&doc)
	if root == nil || root.Kind == 0 || (root.Kind == yaml.ScalarNode && root.Tag == "!!null") {
		return out, nil
	}
	if root.Kind != yaml.MappingNode {
		return ciWorkflow{}, fmt.Errorf("%s:%d: a workflow is a mapping with a jobs key", name, root.Line)
	}
	wfEnv := mapping(get(root, "env"))
	jobs := get(root, "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return out, nil
	}
	for i := 1; i < len(jobs.Content); i += 2 {
		job := jobs.Content[i]
		if job.Kind != yaml.MappingNode {
			continue
		}
		ctx := exprContext{
			matrix: get(get(job, "strategy"), "matrix"),
			env:    []*yaml.Node{mapping(get(job, "env")), wfEnv},
		}
		out.addContainer(get(job, "container"), ctx)
		steps := get(job, "steps")
		if steps == nil || steps.Kind != yaml.SequenceNode {
			continue
		}
		for _, step := range steps.Content {
			uses := scalar(get(step, "uses"))
			if !strings.HasPrefix(strings.ToLower(uses), "actions/setup-node") {
				continue
			}
			with := get(step, "with")
			stepCtx := ctx
			stepCtx.env = append([]*yaml.Node{mapping(get(step, "env"))}, ctx.env...)
			if v := get(with, "node-version"); v != nil && v.Kind == yaml.ScalarNode && strings.TrimSpace(v.Value) != "" {
				out.addValue(v, stepCtx)
			}
			if f := get(with, "node-version-file"); f != nil && f.Kind == yaml.ScalarNode && f.Value != "" {
				out.files = append(out.files, ciFile{path: f.Value, line: f.Line})
			}
		}
	}
	return out, nil
}

func (w *ciWorkflow) addContainer(c *yaml.Node, ctx exprContext) {
	if c == nil {
		return
	}
	img := c
	if c.Kind == yaml.MappingNode {
		img = get(c, "image")
	}
	if img == nil || img.Kind != yaml.ScalarNode {
		return
	}
	for _, s := range ctx.expand(img.Value) {
		if s.unresolved {
			continue
		}
		ref := parseImageRef(s.text)
		if !ref.node {
			continue
		}
		if v, ok := nodeImageTag(ref.tag); ok {
			w.versions = append(w.versions, ciVersion{version: v, written: s.text, line: img.Line, matrix: s.matrix, container: true})
		}
	}
}

func (w *ciWorkflow) addValue(v *yaml.Node, ctx exprContext) {
	for _, s := range ctx.expand(v.Value) {
		if s.unresolved {
			w.unresolved = append(w.unresolved, v.Value)
			continue
		}
		// setup-node reads one version per line; every line is installed.
		for line := range strings.SplitSeq(s.text, "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			nv, ok := normalizeVersion(line)
			if !ok {
				w.unresolved = append(w.unresolved, line)
				continue
			}
			w.versions = append(w.versions, ciVersion{version: nv, written: line, line: v.Line, matrix: s.matrix})
		}
	}
}

// exprContext is what ${{ }} expressions in a job can see.
type exprContext struct {
	matrix *yaml.Node
	// env: innermost first.
	env []*yaml.Node
}

type expansion struct {
	text       string
	matrix     bool
	unresolved bool
}

// expand substitutes the one ${{ }} expression a value may hold; a matrix
// reference yields one text per matrix value. More than one expression, or
// one it cannot read, is unresolved.
func (c exprContext) expand(s string) []expansion {
	locs := ghExpr.FindAllStringSubmatchIndex(s, -1)
	switch len(locs) {
	case 0:
		return []expansion{{text: s}}
	case 1:
	default:
		return []expansion{{text: s, unresolved: true}}
	}
	expr := s[locs[0][2]:locs[0][3]]
	before, after := s[:locs[0][0]], s[locs[0][1]:]
	vals, isMatrix, ok := c.lookup(expr)
	if !ok || len(vals) == 0 {
		return []expansion{{text: s, unresolved: true}}
	}
	out := make([]expansion, 0, len(vals))
	for _, v := range vals {
		out = append(out, expansion{text: before + v + after, matrix: isMatrix})
	}
	return out
}

func (c exprContext) lookup(expr string) (vals []string, isMatrix, ok bool) {
	parts := strings.Split(expr, ".")
	switch parts[0] {
	case "matrix":
		if len(parts) < 2 || len(parts) > 3 || c.matrix == nil || c.matrix.Kind != yaml.MappingNode {
			return nil, true, false
		}
		vals = matrixValues(c.matrix, parts[1:])
		return vals, true, len(vals) > 0
	case "env":
		if len(parts) != 2 {
			return nil, false, false
		}
		for _, env := range c.env {
			if v := get(env, parts[1]); v != nil && v.Kind == yaml.ScalarNode {
				if ghExpr.MatchString(v.Value) {
					return nil, false, false
				}
				return []string{v.Value}, false, true
			}
		}
	}
	return nil, false, false
}

// matrixValues lists the scalar values a matrix key takes, from its own
// list and from include entries, in order, each once.
func matrixValues(matrix *yaml.Node, keys []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n *yaml.Node) {
		if n == nil || n.Kind != yaml.ScalarNode || seen[n.Value] || ghExpr.MatchString(n.Value) {
			return
		}
		seen[n.Value] = true
		out = append(out, n.Value)
	}
	pick := func(n *yaml.Node) *yaml.Node {
		if len(keys) == 2 {
			return get(n, keys[1])
		}
		return n
	}
	if list := get(matrix, keys[0]); list != nil {
		switch list.Kind {
		case yaml.SequenceNode:
			for _, item := range list.Content {
				add(pick(item))
			}
		case yaml.ScalarNode:
			if len(keys) == 1 {
				add(list)
			}
		}
	}
	if inc := get(matrix, "include"); inc != nil && inc.Kind == yaml.SequenceNode {
		for _, entry := range inc.Content {
			add(pick(get(entry, keys[0])))
		}
	}
	return out
}

func docRoot(doc *yaml.Node) *yaml.Node {
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil
		}
		return resolveAlias(doc.Content[0])
	}
	return resolveAlias(doc)
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 8; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// get returns a mapping's value for key, through aliases; nil otherwise.
func get(m *yaml.Node, key string) *yaml.Node {
	m = resolveAlias(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return resolveAlias(m.Content[i+1])
		}
	}
	return nil
}

func mapping(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.MappingNode {
		return n
	}
	return nil
}

func scalar(n *yaml.Node) string {
	if n != nil && n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return ""
}
