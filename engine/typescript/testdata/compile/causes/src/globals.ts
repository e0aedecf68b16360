export {};
declare global {
  interface Kit {
    shot(): void;
  }
}
