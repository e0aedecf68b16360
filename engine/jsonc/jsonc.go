// Package jsonc owns reading JSON with comments and trailing commas, the
// dialect of tsconfig.json and bun.lock, into bytes encoding/json accepts.
package jsonc

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
)

// Strip blanks out what JSON with comments allows and encoding/json does
// not, comments and trailing commas, with spaces, so every offset (and
// line) stays the input's and an error can name the file's own line.
func Strip(data []byte) []byte {
	out := make([]byte, len(data))
	copy(out, data)
	inString := false
	lastComma := -1
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			lastComma = -1
		case ',':
			lastComma = i
		case '}', ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case ' ', '\t', '\r', '\n':
		case '/':
			if i+1 < len(out) && out[i+1] == '/' {
				for i < len(out) && out[i] != '\n' {
					out[i] = ' '
					i++
				}
				continue
			}
			if i+1 < len(out) && out[i+1] == '*' {
				j := bytes.Index(out[i+2:], []byte("*/"))
				end := len(out)
				if j >= 0 {
					end = i + 2 + j + 2
				}
				for ; i < end; i++ {
					if out[i] != '\n' {
						out[i] = ' '
					}
				}
				i--
				continue
			}
			lastComma = -1
		default:
			lastComma = -1
		}
	}
	return out
}

// ReadFile is the JSONC file at path, stripped (Strip), read only when it
// is a regular file: opening a named pipe blocks until something writes to
// it, so a FIFO a tsconfig extends would hang the run forever.
func ReadFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("not a regular file (%s)", kind(st.Mode()))}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Strip(data), nil
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}
