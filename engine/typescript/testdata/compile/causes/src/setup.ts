export {};
declare module "matchkit" {
  interface Matchers<R> {
    toMatchShot(): R;
  }
}
