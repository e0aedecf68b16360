/// <reference path="../types/vendor.ts" />
export const vendorName = 'v';
