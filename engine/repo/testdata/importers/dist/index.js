require('dist-dir')
