import React from 'react'
import clsx from 'clsx'
