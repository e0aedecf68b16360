// Package semver owns npm's version and range semantics: parsing versions,
// ordering them, matching them against the ranges package.json files and
// packuments write, and naming the kind of an update.
//
// Versions are Masterminds/semver values; ranges are parsed here with npm's
// grammar (node-semver 7) and desugared into plain comparators, because
// Masterminds' own constraint language differs from npm's in ways that
// change answers: it lets any prerelease through once a comparator in the
// set mentions one, reads "1.2.3 - 2" and "^0.0" differently, and rejects
// some forms npm accepts. The tests pin each such difference down.
package semver
