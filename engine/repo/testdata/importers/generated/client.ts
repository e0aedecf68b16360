import 'generated-dir'
