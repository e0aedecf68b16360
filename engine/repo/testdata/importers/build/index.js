require('build-dir')
