// undici's Pool and its request method on their own (see http-client.ts). The classes and the function are the
// ones undici's entry exports (the entry copies `request` onto Dispatcher.prototype), so their types are the entry's.
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}
