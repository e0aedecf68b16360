import React from 'react'
import { z } from "zod/v4"
import type { Button } from '@acme/ui/button'
export * from '@acme/ui'
export { default as x } from  "./local"
import './polyfill'
import 'core-js/stable'
const s = "it's not an import: from 'nope' is inside a string"
