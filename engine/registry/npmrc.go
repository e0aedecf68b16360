package registry

import (
	"encoding/json"
	"regexp"
	"strings"
)

// entry is one key=value of an .npmrc layer, with where it was written so
// a bad value can be reported by file and line.
type entry struct {
	key    string
	value  string
	source string
	line   int // 0 for the environment
}

// layer is one configuration source; later layers win key by key.
type layer struct {
	source  string
	entries []entry
}

var sectionLine = regexp.MustCompile(`^\[([^\]]*)\]\s*$`)

// parseNpmrc reads .npmrc text the way npm's `ini` parser does, so a file
// means to Uptide what it means to npm: `#` and `;` start comments (also
// after an unquoted value), quoted values are JSON-decoded, a key without
// `=` is "true", and ${VAR} is substituted in keys and values. Keys inside
// a [section] are ignored because npm never reads them. It never fails:
// npm accepts any text, so Uptide does too.
func parseNpmrc(data []byte, source string, env map[string]string) layer {
	l := layer{source: source}
	inSection := false
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimRight(raw, "\r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';' {
			continue
		}
		if m := sectionLine.FindStringSubmatch(line); m != nil {
			inSection = strings.TrimSpace(m[1]) != ""
			continue
		}
		if inSection {
			continue
		}
		keyPart, valPart, hasValue := strings.Cut(line, "=")
		if strings.TrimSpace(keyPart) == "" {
			continue
		}
		key := envReplace(iniUnsafe(keyPart), env)
		value := "true"
		if hasValue {
			value = envReplace(iniUnsafe(valPart), env)
		}
		if key == "" || strings.HasSuffix(key, "[]") {
			continue
		}
		l.entries = append(l.entries, entry{key: key, value: value, source: source, line: i + 1})
	}
	return l
}

// iniUnsafe is ini's `unsafe`: it unquotes a quoted value, and otherwise
// cuts the value at the first unescaped `;` or `#`.
func iniUnsafe(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && ((s[0] == '"' && s[len(s)-1] == '"') || (s[0] == '\'' && s[len(s)-1] == '\'')) {
		if s[0] == '\'' {
			s = s[1 : len(s)-1]
		}
		var v any
		if err := json.Unmarshal([]byte(s), &v); err == nil {
			switch v := v.(type) {
			case string:
				return v
			case json.Number, float64, bool:
				b, _ := json.Marshal(v)
				return string(b)
			}
		}
		return s
	}
	var b strings.Builder
	escaped := false
	for _, c := range s {
		switch {
		case escaped:
			if c != '\\' && c != ';' && c != '#' {
				b.WriteByte('\\')
			}
			b.WriteRune(c)
			escaped = false
		case c == ';' || c == '#':
			return strings.TrimSpace(b.String())
		case c == '\\':
			escaped = true
		default:
			b.WriteRune(c)
		}
	}
	if escaped {
		b.WriteByte('\\')
	}
	return strings.TrimSpace(b.String())
}

var envExpr = regexp.MustCompile(`(\\*)\$\{([^${}?]+)(\?)?\}`)

// envReplace is npm's env substitution: ${NAME} becomes the variable's value
// and stays literal when it is unset, ${NAME?} becomes empty when unset, and
// an odd number of backslashes escapes the expression.
func envReplace(s string, env map[string]string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	return envExpr.ReplaceAllStringFunc(s, func(m string) string {
		sub := envExpr.FindStringSubmatch(m)
		esc, name, optional := sub[1], sub[2], sub[3] == "?"
		if len(esc)%2 == 1 {
			return m[(len(esc)+1)/2:]
		}
		val, ok := env[name]
		if !ok {
			if optional {
				val = ""
			} else {
				val = "${" + name + "}"
			}
		}
		return esc[len(esc)/2:] + val
	})
}

// envLayer turns npm_config_* / NPM_CONFIG_* variables into config keys the
// way npm does: the prefix is case-insensitive, empty values are ignored,
// and non-nerf-dart keys have inner underscores turned into dashes and are
// lowercased (npm_config_always_auth is always-auth).
func envLayer(env []string, vars map[string]string) layer {
	l := layer{source: "environment"}
	const prefix = "npm_config_"
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || value == "" || len(name) <= len(prefix) || !strings.EqualFold(name[:len(prefix)], prefix) {
			continue
		}
		key := name[len(prefix):]
		if !strings.HasPrefix(key, "//") {
			key = key[:1] + strings.ReplaceAll(key[1:], "_", "-")
			key = strings.ToLower(key)
		}
		l.entries = append(l.entries, entry{key: key, value: envReplace(value, vars), source: "environment variable " + name})
	}
	return l
}

// envMap indexes an environment list; later duplicates win, as in exec.
func envMap(env []string) map[string]string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}
