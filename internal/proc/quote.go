package proc

import "strings"

// ShellQuote is s as one word of a POSIX shell command: as it is when it
// holds only characters no shell treats specially (npm names, versions,
// plain paths), else single-quoted. A command printed for the user to
// paste (a Next line, a git fetch), a script run through sh -c, or a shim
// passes s through unchanged.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-@%+:=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
