package lockfile

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// berryMetadata are the __metadata versions Yarn 2 to 4 have written.
const (
	berryMinVersion = 3
	berryMaxVersion = 10
)

// berryLockfile is a Yarn 2+ ("berry") yarn.lock: YAML whose keys are
// descriptors with an explicit protocol ("lodash@npm:^4.17.21").
type berryLockfile struct {
	file string
	yarnIndex
	// workspaces maps a workspace path to its own entry, whose
	// dependencies record the descriptor each declaration was locked with.
	workspaces map[string]map[string]string
}

func (l *berryLockfile) Path() string   { return l.file }
func (l *berryLockfile) Format() Format { return YarnBerry }
func (l *berryLockfile) Installed(ws, name, spec string) (string, bool) {
	return installed(l, ws, name, spec)
}

func (l *berryLockfile) Lookup(ws, name, spec string) (Entry, bool) {
	keys := []string{name + "@" + berryRange(spec)}
	if locked, ok := l.workspaces[cleanWorkspace(ws)][name]; ok {
		keys = append(keys, name+"@"+berryRange(locked))
	}
	i, ok := l.find(keys...)
	if !ok {
		return Entry{}, false
	}
	e := l.entries[i]
	out := Entry{Package: name, Version: e.version}
	pkg, rng, _ := splitAt(e.resolution)
	if pkg != "" {
		out.Package = pkg
	}
	if isLocalProtocol(rng) || isLocalProtocol(berryRange(spec)) {
		return Entry{Package: out.Package, Resolution: e.resolution, Local: true}, true
	}
	if !isVersion(out.Version) {
		out.Resolution, out.Version = e.resolution, ""
	}
	return out, true
}

// berryRange is the range as Berry writes it in a descriptor: a bare range
// or tag gets the default npm: protocol.
func berryRange(spec string) string {
	if hasProtocol(spec) {
		return spec
	}
	return "npm:" + spec
}

// isBerry tells a Berry lockfile from a classic one: Berry's starts with a
// __metadata entry after its header comments.
func isBerry(data []byte) bool {
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			next = off + end + 1
		}
		l := bytes.TrimSpace(data[off:next])
		off = next
		if len(l) == 0 || l[0] == '#' {
			continue
		}
		return bytes.HasPrefix(l, []byte("__metadata:")) || bytes.HasPrefix(l, []byte(`"__metadata":`))
	}
	return false
}

func parseBerry(file string, data []byte) (Lockfile, error) {
	if err := checkComplete(file, data, "yarn lockfile", yarnHint); err != nil {
		return nil, err
	}
	// Most of a Berry lockfile (checksums, dependency lists, bins) does
	// not say what a workspace installed, and parsing it all as YAML takes
	// several times longer than the rest. Yarn's own layout lets the
	// needed lines be picked out; anything that does not read right that
	// way is parsed whole, so the answer or error is the full parse's.
	essential, lines := berryEssentials(data)
	if root, err := parseYAML(file, essential, 1, yarnHint); err == nil {
		remapLines(root, lines)
		if l, err := buildBerry(file, root); err == nil {
			return l, nil
		}
	}
	root, err := parseYAML(file, data, 1, yarnHint)
	if err != nil {
		return nil, err
	}
	return buildBerry(file, root)
}

// berryEssentials keeps each entry's key, version and resolution lines,
// and the whole of __metadata and of workspace entries (whose dependencies
// say which descriptor each declaration was locked with). lines maps each
// kept line to its line in data.
func berryEssentials(data []byte) ([]byte, []int) {
	out := make([]byte, 0, len(data)/3)
	var lines []int
	keepAll := false
	line := 0
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			next = off + end + 1
		}
		l := data[off:next]
		off = next
		line++
		keep := false
		switch {
		case len(l) == 0 || l[0] == '#' || l[0] == '\n' || l[0] == '\r':
		case l[0] != ' ':
			keepAll = bytes.Contains(l, []byte("@workspace:")) || bytes.HasPrefix(l, []byte("__metadata")) || bytes.HasPrefix(l, []byte(`"__metadata"`))
			keep = true
		default:
			keep = keepAll || bytes.HasPrefix(l, []byte("  version:")) || bytes.HasPrefix(l, []byte("  resolution:"))
		}
		if keep {
			out = append(out, l...)
			if l[len(l)-1] != '\n' {
				out = append(out, '\n')
			}
			lines = append(lines, line)
		}
	}
	return out, lines
}

// remapLines puts the lines of the file back on nodes parsed from the
// essential lines.
func remapLines(n *yaml.Node, lines []int) {
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.Line >= 1 && len(lines) > 0 {
			x.Line = lines[min(x.Line, len(lines))-1]
		}
		stack = append(stack, x.Content...)
	}
}

func buildBerry(file string, root *yaml.Node) (*berryLockfile, error) {
	if root.Kind != yaml.MappingNode {
		return nil, &Error{File: file, Line: root.Line, Msg: "expected a mapping of package descriptors", Hint: yarnHint}
	}
	l := &berryLockfile{file: file, yarnIndex: yarnIndex{descriptors: map[string]int{}}, workspaces: map[string]map[string]string{}}
	if err := checkBerryVersion(file, root); err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], value(root.Content[i+1])
		if k.Value == "__metadata" {
			continue
		}
		keys := splitDescriptors(k.Value)
		if len(keys) == 0 {
			return nil, &Error{File: file, Line: k.Line, Msg: "an entry without a package descriptor", Hint: yarnHint}
		}
		if v == nil || v.Kind != yaml.MappingNode {
			return nil, &Error{File: file, Line: k.Line, Msg: fmt.Sprintf("the entry for %q is not a mapping", keys[0]), Hint: yarnHint}
		}
		e := yarnEntry{line: k.Line}
		var deps *yaml.Node
		for j := 0; j+1 < len(v.Content); j += 2 {
			f, fv := v.Content[j].Value, value(v.Content[j+1])
			switch f {
			case "version":
				if fv != nil && fv.Kind == yaml.ScalarNode {
					e.version = fv.Value
				}
			case "resolution":
				if fv != nil && fv.Kind == yaml.ScalarNode {
					e.resolution = fv.Value
				}
			case "dependencies":
				deps = fv
			}
		}
		if e.version == "" || e.resolution == "" {
			missing := "version"
			if e.version != "" {
				missing = "resolution"
			}
			return nil, &Error{File: file, Line: k.Line, Msg: fmt.Sprintf("the entry for %q has no %s, so the file looks truncated or edited by hand", keys[0], missing), Hint: yarnHint}
		}
		l.add(keys, e)
		if _, rng, _ := splitAt(e.resolution); strings.HasPrefix(rng, "workspace:") {
			l.workspaces[cleanWorkspace(strings.TrimPrefix(rng, "workspace:"))] = berryDeps(deps)
		}
	}
	return l, nil
}

func checkBerryVersion(file string, root *yaml.Node) error {
	var metaLine int
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "__metadata" {
			metaLine = root.Content[i].Line
			meta := value(root.Content[i+1])
			v := value(MapGet(meta, "version"))
			if v == nil || v.Kind != yaml.ScalarNode {
				return &Error{File: file, Line: metaLine, Msg: "__metadata has no version", Hint: yarnHint}
			}
			n, err := strconv.Atoi(v.Value)
			if err != nil || n < berryMinVersion || n > berryMaxVersion {
				return &Error{File: file, Line: v.Line, Msg: fmt.Sprintf("Yarn lockfile version %q is not one Uptide reads (%d to %d)", v.Value, berryMinVersion, berryMaxVersion),
					Hint: "write it with Yarn 2 to 4, or upgrade Uptide"}
			}
			return nil
		}
	}
	return &Error{File: file, Line: 1, Msg: "no __metadata entry", Hint: yarnHint}
}

func berryDeps(n *yaml.Node) map[string]string {
	out := map[string]string{}
	if n == nil || n.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := value(n.Content[i+1]); v != nil && v.Kind == yaml.ScalarNode {
			out[n.Content[i].Value] = v.Value
		}
	}
	return out
}

// splitDescriptors splits a Berry key, "a@npm:^1, a@npm:~1.2".
func splitDescriptors(key string) []string {
	var out []string
	for _, d := range strings.Split(key, ",") {
		if d = strings.TrimSpace(d); d != "" {
			out = append(out, d)
		}
	}
	return out
}
