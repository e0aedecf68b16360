// Listed by the tsconfig's files: it declares what the build defines.
declare const __APP_VERSION__: string;
