import 'generated-in-ui'
