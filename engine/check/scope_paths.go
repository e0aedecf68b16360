package check

import (
	"encoding/json"
	"github.com/uptide/uptide/engine/jsonc"
	"github.com/uptide/uptide/engine/typescript"
	"path"
	"path/filepath"
	"strings"
)

// scopeAliases are a tsconfig's path mappings, as repository-relative
// slash paths: how a workspace imports its own files by a non-relative
// name (@/lib/schema).
type scopeAliases struct {
	// baseURL is where a bare specifier may resolve ("" without baseUrl).
	baseURL string
	// paths maps a pattern (one * at most) to its substitutions, already
	// joined to the directory they are relative to.
	paths map[string][]string
}

// programConfig is the workspace's tsconfig.json, else its jsconfig.json,
// repository-relative ("" when it has neither).
func (c *checker) programConfig(ws string) string {
	cfg := typescript.ProgramConfig(filepath.Join(c.root, filepath.FromSlash(ws)))
	if cfg == "" {
		return ""
	}
	return relSlash(c.root, cfg)
}

// loadAliases reads compilerOptions.baseUrl and paths from the tsconfig at
// cfg (repository-relative) and the configs it extends by a relative path;
// the nearest setting wins, as in the compiler. A config it cannot read
// yields no aliases: the scope is then what relative imports reach.
func loadAliases(root, cfg string) scopeAliases {
	var a scopeAliases
	seenBase, seenPaths := false, false
	for i := 0; cfg != "" && i < 8; i++ {
		data, err := jsonc.ReadFile(filepath.Join(root, filepath.FromSlash(cfg)))
		if err != nil {
			break
		}
		var doc struct {
			Extends         any `json:"extends"`
			CompilerOptions struct {
				BaseURL *string             `json:"baseUrl"`
				Paths   map[string][]string `json:"paths"`
			} `json:"compilerOptions"`
		}
		if json.Unmarshal(data, &doc) != nil {
			break
		}
		dir := path.Dir(cfg)
		if !seenBase && doc.CompilerOptions.BaseURL != nil {
			seenBase = true
			a.baseURL = path.Join(dir, *doc.CompilerOptions.BaseURL)
		}
		if !seenPaths && doc.CompilerOptions.Paths != nil {
			seenPaths = true
			// paths are relative to baseUrl when set, else to this config.
			from := dir
			if doc.CompilerOptions.BaseURL != nil {
				from = path.Join(dir, *doc.CompilerOptions.BaseURL)
			}
			a.paths = map[string][]string{}
			for pat, subs := range doc.CompilerOptions.Paths {
				for _, s := range subs {
					a.paths[pat] = append(a.paths[pat], path.Join(from, s))
				}
			}
		}
		ext, _ := doc.Extends.(string)
		if !strings.HasPrefix(ext, ".") {
			break // a package's config maps no path of this repository
		}
		next := path.Join(dir, ext)
		if !strings.HasSuffix(next, ".json") {
			next += ".json"
		}
		cfg = next
	}
	return a
}

// bases returns the repository-relative paths a non-relative specifier
// may name through the aliases, before extensions are probed.
func (a scopeAliases) bases(spec string) []string {
	var out []string
	for pat, subs := range a.paths {
		prefix, suffix, star := strings.Cut(pat, "*")
		switch {
		case !star && spec == pat:
			out = append(out, subs...)
		case star && strings.HasPrefix(spec, prefix) && strings.HasSuffix(spec, suffix) && len(spec) >= len(prefix)+len(suffix):
			mid := spec[len(prefix) : len(spec)-len(suffix)]
			for _, s := range subs {
				out = append(out, strings.Replace(s, "*", mid, 1))
			}
		}
	}
	if a.baseURL != "" {
		out = append(out, path.Join(a.baseURL, spec))
	}
	return out
}
