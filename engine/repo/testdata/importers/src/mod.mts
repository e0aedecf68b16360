import { a } from '@scope/pkg/deep/path.js'
