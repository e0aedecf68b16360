package modformat

import (
	"strings"
	"testing"
)

func TestParseDockerfile(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		version string
		image   string
		custom  bool
		why     string // substring
		line    int
	}{
		{name: "major alpine", src: "FROM node:22-alpine\nRUN npm ci\n", version: "22", image: "node:22-alpine", line: 1},
		{name: "explicit patch slim", src: "FROM node:22.11.0-slim", version: "22.11.0", image: "node:22.11.0-slim", line: 1},
		{name: "lts", src: "FROM node:lts", version: "lts", image: "node:lts"},
		{name: "lts variant", src: "FROM node:lts-alpine3.20", version: "lts", image: "node:lts-alpine3.20"},
		{name: "codename", src: "FROM node:iron-bookworm-slim", version: "20", image: "node:iron-bookworm-slim"},
		{name: "no tag", src: "FROM node", version: "latest", image: "node"},
		{name: "variant only", src: "FROM node:alpine", version: "latest", image: "node:alpine"},
		{name: "lowercase from and platform", src: "from --platform=$BUILDPLATFORM node:20.18 as build", version: "20.18", image: "node:20.18"},
		{name: "registry prefix", src: "FROM docker.io/library/node:20", version: "20", image: "docker.io/library/node:20"},
		{name: "mirror with port", src: "FROM registry.local:5000/library/node:18-alpine", version: "18", image: "registry.local:5000/library/node:18-alpine"},
		{name: "tag and digest", src: "FROM node:22@sha256:abc", version: "22", image: "node:22@sha256:abc"},
		{name: "digest only", src: "FROM node@sha256:abc", why: "digest"},
		{name: "distroless", src: "FROM gcr.io/distroless/nodejs22-debian12", version: "22", image: "gcr.io/distroless/nodejs22-debian12"},
		{
			name:    "multi-stage final stage wins",
			src:     "FROM node:18 AS build\nRUN npm run build\nFROM node:22-slim\nCOPY --from=build /app /app\n",
			version: "22", image: "node:22-slim", line: 3,
		},
		{
			name:    "final stage names an earlier stage",
			src:     "FROM node:20.18-alpine AS base\nFROM base AS deps\nRUN npm ci\nFROM deps\nCMD node x\n",
			version: "20.18", image: "node:20.18-alpine", line: 1,
		},
		{
			name:   "custom base image in the final stage",
			src:    "FROM node:22 AS build\nFROM nginx:alpine\nCOPY --from=build /app/dist /usr/share/nginx/html\n",
			custom: true,
			why:    "nginx:alpine",
			image:  "nginx:alpine",
		},
		{name: "company base", src: "FROM acme/base-node:3\n", custom: true, why: "acme/base-node:3"},
		{name: "scratch", src: "FROM scratch", custom: true},
		{name: "arg default", src: "ARG NODE_VERSION=20.11.1\nFROM node:${NODE_VERSION}-alpine\n", version: "20.11.1", image: "node:20.11.1-alpine", line: 2},
		{name: "arg dollar", src: "ARG V=22\nFROM node:$V", version: "22", image: "node:22"},
		{name: "arg fallback", src: "ARG NODE\nFROM node:${NODE:-21}", version: "21", image: "node:21"},
		{name: "arg without default", src: "ARG NODE\nFROM node:${NODE}-alpine", why: "no default"},
		{name: "stage arg does not reach FROM", src: "FROM node:18 AS a\nARG V=22\nFROM node:${V}", why: "no default"},
		{
			name:    "continuation lines and comments",
			src:     "# syntax=docker/dockerfile:1\n# a comment\nFROM \\\n  node:22 \\\n  AS app\n",
			version: "22", image: "node:22", line: 3,
		},
		{name: "escape directive", src: "# escape=`\nFROM `\n node:20\n", version: "20", image: "node:20", line: 2},
		{name: "unknown tag", src: "FROM node:foo", why: `"foo"`},
		{name: "CRLF", src: "FROM node:18\r\n", version: "18", image: "node:18"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseDockerfile("Dockerfile", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if got.version != tt.version || got.custom != tt.custom {
				t.Fatalf("got version %q custom %v (why %q); want %q, %v", got.version, got.custom, got.why, tt.version, tt.custom)
			}
			if tt.image != "" && got.image != tt.image {
				t.Errorf("image %q; want %q", got.image, tt.image)
			}
			if tt.line != 0 && got.line != tt.line {
				t.Errorf("line %d; want %d", got.line, tt.line)
			}
			if tt.why != "" && !strings.Contains(got.why, tt.why) {
				t.Errorf("why %q; want it to contain %q", got.why, tt.why)
			}
			if got.version == "" && got.why == "" {
				t.Errorf("no version and no reason")
			}
		})
	}
}

func TestParseDockerfileErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"empty", "", "Dockerfile: no FROM"},
		{"comments only", "# nothing\n", "no FROM"},
		{"FROM without image", "RUN x\nFROM --platform=linux/amd64\n", "Dockerfile:2: FROM names no image"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseDockerfile("Dockerfile", []byte(tt.src))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v; want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestParseVersionFiles(t *testing.T) {
	nvm := []struct {
		src, want, err string
		line           int
	}{
		{src: "22\n", want: "22", line: 1},
		{src: "\ufeffv20.18.1\n", want: "20.18.1", line: 1},
		{src: "# pinned for prod\n\nlts/iron\n", want: "20", line: 3},
		{src: "lts/*", want: "lts", line: 1},
		{src: "node # newest", want: "latest", line: 1},
		{src: "system\n", err: `.nvmrc:1: "system" is not a Node version`},
		{src: "\n\n", err: ".nvmrc: names no Node version"},
	}
	for _, tt := range nvm {
		got, err := parseNvmrc(".nvmrc", []byte(tt.src))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseNvmrc(%q) err %v; want %q", tt.src, err, tt.err)
			}
			continue
		}
		if err != nil || got.version != tt.want || got.line != tt.line {
			t.Errorf("parseNvmrc(%q) = %+v, %v; want %q at line %d", tt.src, got, err, tt.want, tt.line)
		}
	}
	tv := []struct {
		src, want, err string
		found          bool
	}{
		{src: "python 3.12.1\nnodejs 22.12.0 20.19.0\n", want: "22.12.0", found: true},
		{src: "node 20 # mise spelling", want: "20", found: true},
		{src: "ruby 3.3.0\n", found: false},
		{src: "nodejs\n", err: ".tool-versions:1: nodejs line names no version", found: true},
		{src: "nodejs ref:main\n", err: `.tool-versions:1: "ref:main"`, found: true},
		{src: "# nodejs 18\nnodejs lts\n", want: "lts", found: true},
	}
	for _, tt := range tv {
		got, found, err := parseToolVersions(".tool-versions", []byte(tt.src))
		if found != tt.found {
			t.Errorf("parseToolVersions(%q) found %v; want %v", tt.src, found, tt.found)
		}
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseToolVersions(%q) err %v; want %q", tt.src, err, tt.err)
			}
			continue
		}
		if err != nil || got.version != tt.want {
			t.Errorf("parseToolVersions(%q) = %+v, %v; want %q", tt.src, got, err, tt.want)
		}
	}
}
