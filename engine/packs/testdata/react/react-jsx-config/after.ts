{
  "compilerOptions": {
    "jsx": "preserve",
    "jsxImportSource": "react",
    "strict": true
  }
}
