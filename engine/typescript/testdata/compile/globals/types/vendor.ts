// Outside include: reached only through vendor.ts's triple-slash reference.
declare const __VENDOR__: { id: number };
