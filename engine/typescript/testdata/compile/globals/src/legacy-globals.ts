// A script (no import or export): its declarations are global.
function legacyTitle(name: string): string {
  return name.toUpperCase();
}
