package repo

import (
	"fmt"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"
)

// pnpmWorkspace is the part of pnpm-workspace.yaml Uptide reads.
type pnpmWorkspace struct {
	// packages are the workspace globs; hasPackages is false when the field
	// is absent, which pnpm reads as "the root only".
	packages    []string
	hasPackages bool
	// catalogs maps catalog name ("default" for catalog:) to entries.
	catalogs map[string]map[string]string
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// parsePnpmWorkspace reads pnpm-workspace.yaml with the validation pnpm
// applies (packages a list of non-empty strings, catalogs maps of strings,
// the default catalog defined once). Errors carry the line.
func parsePnpmWorkspace(data []byte) (*pnpmWorkspace, *InputError) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line := 0
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		return nil, &InputError{Line: line, Msg: fmt.Sprintf("not valid YAML (%v): fix the syntax", err)}
	}
	out := &pnpmWorkspace{catalogs: map[string]map[string]string{}}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return out, nil // an empty file is allowed
	}
	root := deref(doc.Content[0])
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return out, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, &InputError{Line: root.Line, Msg: "expected a mapping (packages:, catalog:, catalogs:) at the top: fix the file"}
	}
	defaultAt := 0
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i], deref(root.Content[i+1])
		switch key.Value {
		case "packages":
			out.hasPackages = true
			if isYAMLNull(val) {
				continue
			}
			if val.Kind != yaml.SequenceNode {
				return nil, &InputError{Line: val.Line, Msg: "packages is not a list of globs: write it as\npackages:\n  - 'packages/*'"}
			}
			for _, item := range val.Content {
				item = deref(item)
				if item.Kind != yaml.ScalarNode || isYAMLNull(item) || item.Value == "" {
					return nil, &InputError{Line: item.Line, Msg: "a packages entry is not a non-empty glob: remove it or write a directory glob"}
				}
				out.packages = append(out.packages, item.Value)
			}
		case "catalog":
			if isYAMLNull(val) {
				continue
			}
			entries, err := yamlCatalog("the default catalog", val)
			if err != nil {
				return nil, err
			}
			if defaultAt > 0 {
				return nil, &InputError{Line: key.Line, Msg: fmt.Sprintf("the default catalog is defined twice (catalogs.default at line %d and catalog:): keep one, as pnpm requires", defaultAt)}
			}
			out.catalogs["default"] = entries
			defaultAt = key.Line
		case "catalogs":
			if isYAMLNull(val) {
				continue
			}
			if val.Kind != yaml.MappingNode {
				return nil, &InputError{Line: val.Line, Msg: "catalogs is not a mapping of catalog name → entries: fix it"}
			}
			for j := 0; j+1 < len(val.Content); j += 2 {
				name, cat := val.Content[j], deref(val.Content[j+1])
				if isYAMLNull(cat) {
					continue
				}
				entries, err := yamlCatalog("catalog "+strconv.Quote(name.Value), cat)
				if err != nil {
					return nil, err
				}
				if name.Value == "default" && defaultAt > 0 {
					return nil, &InputError{Line: name.Line, Msg: fmt.Sprintf("the default catalog is defined twice (catalog: at line %d and catalogs.default): keep one, as pnpm requires", defaultAt)}
				}
				if name.Value == "default" {
					defaultAt = name.Line
				}
				out.catalogs[name.Value] = entries
			}
		}
	}
	return out, nil
}

func yamlCatalog(what string, n *yaml.Node) (map[string]string, *InputError) {
	if n.Kind != yaml.MappingNode {
		return nil, &InputError{Line: n.Line, Msg: what + " is not a mapping of package → version range: fix it"}
	}
	entries := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		if v.Kind != yaml.ScalarNode || isYAMLNull(v) {
			return nil, &InputError{Line: v.Line, Msg: fmt.Sprintf("%s: the entry for %s is not a version range: write one, e.g. ^1.2.3", what, k.Value)}
		}
		entries[k.Value] = v.Value
	}
	return entries, nil
}

// deref follows a YAML alias (*anchor) to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; i < 8 && n != nil && n.Kind == yaml.AliasNode && n.Alias != nil; i++ {
		n = n.Alias
	}
	return n
}

func isYAMLNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}
