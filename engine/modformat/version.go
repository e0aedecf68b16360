package modformat

import (
	"strconv"
	"strings"
)

// The spellings of "the newest Node there is" and "the newest LTS line".
// Every release either resolves to today has require(esm).
const (
	versionLatest = "latest"
	versionLTS    = "lts"
)

// ltsCodenames maps Node's LTS codenames (nvm's lts/<name>, Docker's
// node:<name> tags) to their major.
var ltsCodenames = map[string]string{
	"argon": "4", "boron": "6", "carbon": "8", "dubnium": "10", "erbium": "12",
	"fermium": "14", "gallium": "16", "hydrogen": "18", "iron": "20",
	"jod": "22", "krypton": "24",
}

// MovingLine reports whether a normalized version is "latest" or "lts":
// a tag that names no release line, though every line it can name today
// has require(esm).
func MovingLine(version string) bool { return version == versionLatest || version == versionLTS }

// HasRequireESM reports whether a Node version can require() an ES module
// (unflagged in 22.12 and 20.19, and in every release from 23 on). A bare
// major means the newest release of that major, so "20" and "22" have it;
// only an explicit older minor ("22.11", "20.18.1") rules it out. known is
// false when the version is empty or not a Node version.
func HasRequireESM(version string) (yes bool, known bool) {
	v := strings.TrimSpace(version)
	switch v {
	case "":
		return false, false
	case versionLatest, versionLTS:
		return true, true
	}
	major, minor, hasMinor, ok := splitVersion(v)
	if !ok {
		return false, false
	}
	switch {
	case major >= 23:
		return true, true
	case major == 22:
		return !hasMinor || minor >= 12, true
	case major == 20:
		return !hasMinor || minor >= 19, true
	default:
		// 21 only ever had it behind --experimental-require-module.
		return false, true
	}
}

// splitVersion reads "22", "22.11" or "22.11.0" (a normalized version).
func splitVersion(v string) (major, minor int, hasMinor, ok bool) {
	parts := strings.Split(v, ".")
	if len(parts) > 3 {
		return 0, 0, false, false
	}
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p == "" || (len(p) > 1 && p[0] == '0') || len(p) > 6 {
			return 0, 0, false, false
		}
		nums[i] = n
	}
	if len(nums) > 1 {
		return nums[0], nums[1], true, true
	}
	return nums[0], 0, false, true
}

// normalizeVersion turns one written Node version (a version file's line, a
// node-version input, a Docker tag's version part) into the form NodeInfo
// reports: "22", "22.x" → "22"; "v22.11.0" → "22.11.0"; "lts/*" → "lts";
// "lts/iron" → "20"; "node", "current", "stable", "latest" → "latest".
// Ranges resolve the way version managers and setup-node resolve them: to
// the newest release they allow ("^20.11" → "20", ">=20" → "latest").
// ok is false for anything else ("system", an empty string, garbage).
func normalizeVersion(s string) (string, bool) {
	v := strings.ToLower(strings.TrimSpace(s))
	v = strings.Trim(v, `"'`)
	switch v {
	case "node", "current", "stable", "latest", "*", "x":
		return versionLatest, true
	case "lts", "lts/*", "lts/-0", "lts-latest":
		return versionLTS, true
	}
	if name, ok := strings.CutPrefix(v, "lts/"); ok {
		major, ok := ltsCodenames[name]
		return major, ok
	}
	if major, ok := ltsCodenames[v]; ok {
		return major, true
	}
	v = strings.TrimPrefix(v, "node-")
	v = strings.TrimPrefix(v, "v")
	switch {
	case strings.HasPrefix(v, "^"):
		// The newest release of the major the caret fixes.
		return exactPrefix(strings.TrimPrefix(v, "^"), 1)
	case strings.HasPrefix(v, "~"):
		// The newest release of the written major.minor.
		return exactPrefix(strings.TrimLeft(v, "~>"), 2)
	case strings.HasPrefix(v, ">"):
		return versionLatest, true
	}
	return exactPrefix(v, 3)
}

// exactPrefix keeps at most keep numeric components of a dotted version,
// stopping at an x-range component ("20.x" → "20") or a prerelease.
func exactPrefix(v string, keep int) (string, bool) {
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		v = v[:i]
	}
	parts := strings.Split(v, ".")
	if len(parts) > 3 {
		return "", false
	}
	var out []string
	for _, p := range parts {
		if p == "x" || p == "X" || p == "*" {
			break
		}
		if _, err := strconv.Atoi(p); err != nil || p == "" || len(p) > 6 {
			return "", false
		}
		out = append(out, strings.TrimLeft(p, "0"))
		if out[len(out)-1] == "" {
			out[len(out)-1] = "0"
		}
	}
	if len(out) == 0 {
		return "", false
	}
	if len(out) > keep {
		out = out[:keep]
	}
	return strings.Join(out, "."), true
}

// compareVersions orders normalized versions from the oldest Node they may
// mean to the newest: "20.18" < "20" (the newest 20) < "22.11.0" < "lts" <
// "latest". Unparseable versions sort last.
func compareVersions(a, b string) int {
	ka, kb := versionKey(a), versionKey(b)
	for i := range ka {
		if ka[i] != kb[i] {
			if ka[i] < kb[i] {
				return -1
			}
			return 1
		}
	}
	return strings.Compare(a, b)
}

func versionKey(v string) [3]int {
	const top = 1 << 30
	switch v {
	case versionLTS:
		return [3]int{top - 1, 0, 0}
	case versionLatest:
		return [3]int{top, 0, 0}
	}
	parts := strings.Split(v, ".")
	key := [3]int{top + 1, top, top}
	for i, p := range parts {
		if i > 2 {
			break
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return [3]int{top + 1, top, top}
		}
		key[i] = n
	}
	return key
}
