// Names the package declares, on values that are not the package's.
const m = new Map<string, string>();
m.get('a');
const opts = { url: 'u', retries: 2 };
export { opts };
