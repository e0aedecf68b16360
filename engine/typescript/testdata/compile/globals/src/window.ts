export {};
declare global {
  interface Window {
    appConfig: { locale: string };
  }
}
