package modformat

import (
	"regexp"
	"strconv"
	"strings"
)

var opSpace = regexp.MustCompile(`([<>=~^]+)\s+`)

// enginesLowest reads an engines.node range as the oldest Node the package
// says it supports, at the precision written: a supported Node is one the
// code must run on, so the lowest alternative binds. ">=20" → "20" (any
// 20, so the newest), "^18 || >=20" → "18", ">=20.11.0" → "20.11.0",
// ">20.18" → "20.19". ok is false when the range has no lower bound ("*",
// "<22") or cannot be read.
func enginesLowest(r string) (string, bool) {
	r = strings.TrimSpace(r)
	if r == "" {
		return "", false
	}
	lowest := ""
	for alt := range strings.SplitSeq(r, "||") {
		lo, ok := alternativeLowerBound(alt)
		if !ok {
			return "", false
		}
		if lowest == "" || compareVersions(lo, lowest) < 0 {
			lowest = lo
		}
	}
	return lowest, lowest != ""
}

func alternativeLowerBound(alt string) (string, bool) {
	alt = opSpace.ReplaceAllString(strings.TrimSpace(alt), "$1")
	fields := strings.Fields(alt)
	if len(fields) == 3 && fields[1] == "-" {
		// A hyphen range starts where its left side does.
		return exactPrefix(strings.TrimPrefix(fields[0], "v"), 3)
	}
	best := ""
	for _, f := range fields {
		var lo string
		var ok bool
		switch {
		case strings.HasPrefix(f, "<"):
			continue
		case strings.HasPrefix(f, ">="):
			lo, ok = exactPrefix(strings.TrimPrefix(f[2:], "v"), 3)
		case strings.HasPrefix(f, ">"):
			lo, ok = nextAfter(strings.TrimPrefix(f[1:], "v"))
		default:
			lo, ok = exactPrefix(strings.TrimPrefix(strings.TrimLeft(f, "^~="), "v"), 3)
		}
		if !ok {
			return "", false
		}
		if best == "" || compareLowerBounds(lo, best) > 0 {
			best = lo
		}
	}
	return best, best != ""
}

// compareLowerBounds orders lower bounds by the first release they admit
// ("20" admits 20.0.0, so it is below "20.18").
func compareLowerBounds(a, b string) int {
	ka, kb := lowerKey(a), lowerKey(b)
	for i := range ka {
		if ka[i] != kb[i] {
			if ka[i] < kb[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func lowerKey(v string) [3]int {
	var k [3]int
	for i, p := range strings.Split(v, ".") {
		if i > 2 {
			break
		}
		k[i], _ = strconv.Atoi(p)
	}
	return k
}

// nextAfter is the first release a ">X" comparator admits, at X's
// precision plus nothing: ">20" → "21", ">20.18" → "20.19".
func nextAfter(v string) (string, bool) {
	p, ok := exactPrefix(v, 3)
	if !ok {
		return "", false
	}
	parts := strings.Split(p, ".")
	n, _ := strconv.Atoi(parts[len(parts)-1])
	parts[len(parts)-1] = strconv.Itoa(n + 1)
	next := strings.Join(parts, ".")
	if _, _, _, ok := splitVersion(next); !ok {
		return "", false
	}
	return next, true
}
