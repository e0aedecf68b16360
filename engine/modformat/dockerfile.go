package modformat

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// dockerStage is one FROM of a Dockerfile.
type dockerStage struct {
	line int
	// image is the reference after ARG expansion; raw is it as written.
	image, raw string
	name       string
	unresolved bool
}

// dockerNode is what a Dockerfile says about the Node the image runs.
type dockerNode struct {
	// version is normalized ("22", "22.11.0", "lts", "latest"); empty when
	// the final stage is not a Node image or its tag names no version.
	version string
	// image is the final stage's base image reference as written after
	// ARG expansion and stage-name resolution.
	image string
	line  int
	// custom: the final stage builds on an image that is not Node's (a
	// company base image, nginx serving a static build, scratch).
	custom bool
	// why explains an empty version.
	why string
}

// parseDockerfile reads the FROM lines of a Dockerfile and answers for its
// final stage, following a FROM that names an earlier stage back to that
// stage's base image and expanding global ARG defaults (ARG NODE=22 before
// FROM node:${NODE}-alpine). name is used in errors only.
func parseDockerfile(name string, data []byte) (dockerNode, error) {
	stages, err := dockerStages(name, data)
	if err != nil {
		return dockerNode{}, err
	}
	if len(stages) == 0 {
		return dockerNode{}, fmt.Errorf("%s: no FROM instruction: not a Dockerfile, or an empty one", name)
	}
	st := finalBase(stages)
	out := dockerNode{image: st.image, line: st.line}
	if st.unresolved {
		out.why = fmt.Sprintf("the final stage's FROM %s uses a build argument with no default", st.raw)
		return out, nil
	}
	ref := parseImageRef(st.image)
	switch {
	case ref.distrolessMajor != "":
		out.version = ref.distrolessMajor
	case !ref.node:
		out.custom = true
		out.why = fmt.Sprintf("the final stage builds on %s, a custom base image, not Node's", st.image)
	case ref.tag == "" && ref.digest:
		out.why = fmt.Sprintf("FROM %s pins the image by digest, which names no Node version", st.image)
	default:
		v, ok := nodeImageTag(ref.tag)
		if !ok {
			out.why = fmt.Sprintf("FROM %s: the tag %q names no Node version", st.image, ref.tag)
			return out, nil
		}
		out.version = v
	}
	return out, nil
}

// finalBase is the stage the final image is built on: the last FROM,
// followed through FROM <earlier stage> references. A stage can only name
// an earlier one, so the walk ends.
func finalBase(stages []dockerStage) dockerStage {
	i := len(stages) - 1
	for {
		prev := -1
		for j := i - 1; j >= 0; j-- {
			if stages[j].name != "" && stages[j].name == strings.ToLower(stages[i].image) {
				prev = j
				break
			}
		}
		if prev < 0 {
			return stages[i]
		}
		i = prev
	}
}

// imageRef is a container image reference split into what matters here.
type imageRef struct {
	// node: the repository's last component is "node" (Docker Hub's
	// official image, its mirrors, cimg/node, bitnami/node, chainguard's).
	node bool
	// distrolessMajor is N of gcr.io/distroless/nodejsN-debianM.
	distrolessMajor string
	tag             string
	digest          bool
}

var distroless = regexp.MustCompile(`^nodejs(\d+)(?:-|$)`)

func parseImageRef(s string) imageRef {
	var ref imageRef
	s = strings.ToLower(s)
	if i := strings.Index(s, "@"); i >= 0 {
		ref.digest = true
		s = s[:i]
	}
	last := s
	if i := strings.LastIndex(s, "/"); i >= 0 {
		last = s[i+1:]
	}
	if i := strings.Index(last, ":"); i >= 0 {
		ref.tag = last[i+1:]
		last = last[:i]
	}
	ref.node = last == "node"
	if m := distroless.FindStringSubmatch(last); m != nil {
		ref.distrolessMajor = strings.TrimLeft(m[1], "0")
		if ref.distrolessMajor == "" {
			ref.distrolessMajor = "0"
		}
	}
	return ref
}

var tagVersion = regexp.MustCompile(`^v?(\d+(?:\.\d+){0,2})(?:-|$)`)

// nodeImageTag reads the Node version a node image tag names: "22-alpine"
// → "22", "22.11.0-slim" → "22.11.0", "lts-alpine" → "lts", "iron" → "20",
// "alpine" or no tag → "latest".
func nodeImageTag(tag string) (string, bool) {
	if tag == "" {
		return versionLatest, true
	}
	if m := tagVersion.FindStringSubmatch(tag); m != nil {
		return exactPrefix(m[1], 3)
	}
	word, _, _ := strings.Cut(tag, "-")
	switch word {
	case "lts":
		return versionLTS, true
	case "current", "latest":
		return versionLatest, true
	}
	if major, ok := ltsCodenames[word]; ok {
		return major, true
	}
	if isDistroVariant(word) {
		// node:alpine, node:bookworm-slim: the current release.
		return versionLatest, true
	}
	return "", false
}

var distroVariant = regexp.MustCompile(`^(alpine[0-9.]*|slim|bookworm|bullseye|buster|stretch|jessie|trixie)$`)

func isDistroVariant(s string) bool { return distroVariant.MatchString(s) }

// dockerStages reads every FROM with its stage name, expanding ARGs
// declared before the first FROM.
func dockerStages(name string, data []byte) ([]dockerStage, error) {
	args := map[string]string{}
	var stages []dockerStage
	escape := byte('\\')
	lines := logicalLines(data, &escape)
	for _, ln := range lines {
		fields := strings.Fields(ln.text)
		if len(fields) == 0 {
			continue
		}
		switch strings.ToUpper(fields[0]) {
		case "ARG":
			if len(stages) > 0 {
				continue
			}
			for _, f := range fields[1:] {
				k, v, hasDefault := strings.Cut(f, "=")
				if hasDefault {
					args[k] = strings.Trim(v, `"'`)
				} else if _, ok := args[k]; !ok {
					args[k] = ""
				}
			}
		case "FROM":
			rest := fields[1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0], "--") {
				rest = rest[1:]
			}
			if len(rest) == 0 {
				return nil, fmt.Errorf("%s:%d: FROM names no image: fix the Dockerfile", name, ln.line)
			}
			st := dockerStage{line: ln.line, raw: rest[0]}
			st.image, st.unresolved = expandArgs(rest[0], args)
			if len(rest) >= 3 && strings.EqualFold(rest[1], "AS") {
				st.name = strings.ToLower(rest[2])
			}
			stages = append(stages, st)
		}
	}
	return stages, nil
}

type logicalLine struct {
	line int
	text string
}

// logicalLines joins continuation lines and drops comments, honouring a
// leading `# escape=` parser directive.
func logicalLines(data []byte, escape *byte) []logicalLine {
	var out []logicalLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	directives := true
	var cur strings.Builder
	start := 0
	for sc.Scan() {
		n++
		raw := strings.TrimRight(sc.Text(), "\r")
		trimmed := strings.TrimSpace(raw)
		if directives {
			if m := escapeDirective.FindStringSubmatch(trimmed); m != nil {
				*escape = m[1][0]
				continue
			}
			if !strings.HasPrefix(trimmed, "#") || trimmed == "" {
				directives = false
			}
		}
		if strings.HasPrefix(trimmed, "#") {
			continue
		}
		if cur.Len() == 0 {
			start = n
		}
		if len(trimmed) > 0 && trimmed[len(trimmed)-1] == *escape {
			cur.WriteString(trimmed[:len(trimmed)-1])
			cur.WriteByte(' ')
			continue
		}
		cur.WriteString(trimmed)
		if cur.Len() > 0 {
			out = append(out, logicalLine{line: start, text: cur.String()})
		}
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, logicalLine{line: start, text: cur.String()})
	}
	return out
}

var escapeDirective = regexp.MustCompile(`(?i)^#\s*escape\s*=\s*([\\` + "`" + `])\s*$`)

var argRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?([-+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

// expandArgs substitutes $X, ${X}, ${X:-default} and ${X:+alt} from the
// global ARG defaults; unresolved is set when a variable has no value.
func expandArgs(s string, args map[string]string) (string, bool) {
	unresolved := false
	out := argRef.ReplaceAllStringFunc(s, func(m string) string {
		sub := argRef.FindStringSubmatch(m)
		name, op, word := sub[1], sub[2], sub[3]
		if name == "" {
			name = sub[4]
		}
		val, set := args[name]
		switch op {
		case "-":
			if val == "" {
				return word
			}
			return val
		case "+":
			if val != "" {
				return word
			}
			return ""
		}
		if !set || val == "" {
			unresolved = true
		}
		return val
	})
	return out, unresolved
}
