{
  "compilerOptions": {
    "jsx": "preserve",
    "strict": true
  }
}
