require('coverage-dir')
