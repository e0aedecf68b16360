const fs = require('node:fs')
const local = require('./local')
const abs = require('/abs/path')
const sub = require('#internal')
