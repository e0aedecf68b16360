import 'ignored-by-extension-rule'
