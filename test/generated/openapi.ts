export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API root: links to version 1, its collections, the token endpoint and the OpenAPI document
         * @description Public. Every href is absolute, for the host the request named; a collection link's rel is "collection <href>".
         */
        get: operations["getRoot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: the process answers
         * @description Public, not rate-limited, not logged. For a supervisor that restarts a process that stopped answering.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue an access token: client_credentials, password or refresh_token grant
         * @description How to get a token: a fresh data directory has a bootstrap client with every scope, whose id and secret the first start prints as an export line (CLIENT_ID, CLIENT_SECRET); more clients come from npm run cli -- client create --scope "zoos:read". POST grant_type=client_credentials here with the client's id and secret as HTTP Basic, then send the access_token as Authorization: Bearer <access_token> on every /v1 request. RFC 6749: parameters as application/x-www-form-urlencoded, the client authenticated by HTTP Basic or client_id and client_secret in the body. Answers a JWT access token (RFC 9068, ES256) and, for the password and refresh_token grants, a refresh token, rotated on every use. Errors carry an RFC 6749 code in error; a wrong client secret, user name or password is 401.
         */
        post: operations["issueToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an access or refresh token (RFC 7009)
         * @description The client that holds the token authenticates as for the token endpoint; 200 whether or not the token was known.
         */
        post: operations["revokeToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: the database answers, the migrations are applied, the job worker runs
         * @description Public, not rate-limited, not logged. For a load balancer: 503 takes the instance out of rotation, while it starts, stops, is overloaded or has lost its database.
         */
        get: operations["getReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Version 1: its collections
         * @description Needs a bearer token, with any scope.
         */
        get: operations["getVersion1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/animals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List animals
         * @description 20 records a page unless limit or per_page says otherwise (at most 100). Page with limit and offset, or page and per_page, or follow the next link of the Link header: its keyset cursor costs the same on every page. Sort with sortby and order; filter any field by equality (<field>), range (<field>_gt, _gte, _lt, _lte), difference (_ne) or a comma list (_in). X-Total-Count counts every record the filters match. An unknown or ill-typed parameter is 400, never ignored.
         */
        get: operations["listAnimals"];
        put?: never;
        /**
         * Create an animal, or several at once from an array (all or none)
         * @description An object creates one animal: 201 with its Location and ETag. An array creates up to 1000, all or none: 201 with the array. Idempotency-Key makes a retry safe; Prefer: respond-async queues the write as a background job (202).
         */
        post: operations["createAnimal"];
        delete?: never;
        /**
         * Methods allowed here and the animal fields a client may write
         * @description The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. A CORS preflight on the same path is answered by the CORS layer instead, without a token.
         */
        options: operations["describeAnimals"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/animals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one animal
         * @description With its ETag; If-None-Match naming it answers 304 without a body. 410 for an animal that was deleted.
         */
        get: operations["getAnimal"];
        /**
         * Replace an animal: every writable field (read-only ones are ignored)
         * @description The body holds every writable field; id, created_at and updated_at are ignored, so a body read with GET can be sent back. 201 with the complete record and its new ETag. If-Match makes the write conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).
         */
        put: operations["replaceAnimal"];
        post?: never;
        /**
         * Delete an animal
         * @description 204; its id is never used again and answers 410 from then on. If-Match makes it conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).
         */
        delete: operations["deleteAnimal"];
        /**
         * Methods allowed here and the animal fields a client may write
         * @description The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. A CORS preflight on the same path is answered by the CORS layer instead, without a token.
         */
        options: operations["describeAnimalsItem"];
        head?: never;
        /**
         * Change some fields of an animal
         * @description The body holds only the fields to change. Idempotency-Key makes a retry safe. 201 with the complete record and its new ETag. If-Match makes the write conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).
         */
        patch: operations["updateAnimal"];
        trace?: never;
    };
    "/v1/employees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List employees
         * @description 20 records a page unless limit or per_page says otherwise (at most 100). Page with limit and offset, or page and per_page, or follow the next link of the Link header: its keyset cursor costs the same on every page. Sort with sortby and order; filter any field by equality (<field>), range (<field>_gt, _gte, _lt, _lte), difference (_ne) or a comma list (_in). X-Total-Count counts every record the filters match. An unknown or ill-typed parameter is 400, never ignored.
         */
        get: operations["listEmployees"];
        put?: never;
        /**
         * Create an employee, or several at once from an array (all or none)
         * @description An object creates one employee: 201 with its Location and ETag. An array creates up to 1000, all or none: 201 with the array. Idempotency-Key makes a retry safe; Prefer: respond-async queues the write as a background job (202).
         */
        post: operations["createEmployee"];
        delete?: never;
        /**
         * Methods allowed here and the employee fields a client may write
         * @description The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. A CORS preflight on the same path is answered by the CORS layer instead, without a token.
         */
        options: operations["describeEmployees"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/employees/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one employee
         * @description With its ETag; If-None-Match naming it answers 304 without a body. 410 for an employee that was deleted.
         */
        get: operations["getEmployee"];
        /**
         * Replace an employee: every writable field (read-only ones are ignored)
         * @description The body holds every writable field; id, created_at and updated_at are ignored, so a body read with GET can be sent back. 201 with the complete record and its new ETag. If-Match makes the write conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).
         */
        put: operations["replaceEmployee"];
        post?: never;
        /**
         * Delete an employee
         * @description 204; its id is never used again and answers 410 from then on. If-Match makes it conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).
         */
        delete: operations["deleteEmployee"];
        /**
         * Methods allowed here and the employee fields a client may write
         * @description The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. A CORS preflight on the same path is answered by the CORS layer instead, without a token.
         */
        options: operations["describeEmployeesItem"];
        head?: never;
        /**
         * Change some fields of an employee
         * @description The body holds only the fields to change. Idempotency-Key makes a retry safe. 201 with the complete record and its new ETag. If-Match makes the write conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).
         */
        patch: operations["updateEmployee"];
        trace?: never;
    };
    "/v1/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a background job: its state and, once finished, the answer its request got
         * @description Only the client that queued the job sees it; for any other it is 404. Retry-After suggests when to ask again while the job is queued or running.
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/zoos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List zoos
         * @description 20 records a page unless limit or per_page says otherwise (at most 100). Page with limit and offset, or page and per_page, or follow the next link of the Link header: its keyset cursor costs the same on every page. Sort with sortby and order; filter any field by equality (<field>), range (<field>_gt, _gte, _lt, _lte), difference (_ne) or a comma list (_in). X-Total-Count counts every record the filters match. An unknown or ill-typed parameter is 400, never ignored.
         */
        get: operations["listZoos"];
        put?: never;
        /**
         * Create a zoo, or several at once from an array (all or none)
         * @description An object creates one zoo: 201 with its Location and ETag. An array creates up to 1000, all or none: 201 with the array. Idempotency-Key makes a retry safe; Prefer: respond-async queues the write as a background job (202).
         */
        post: operations["createZoo"];
        delete?: never;
        /**
         * Methods allowed here and the zoo fields a client may write
         * @description The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. A CORS preflight on the same path is answered by the CORS layer instead, without a token.
         */
        options: operations["describeZoos"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/zoos/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one zoo
         * @description With its ETag; If-None-Match naming it answers 304 without a body. 410 for a zoo that was deleted.
         */
        get: operations["getZoo"];
        /**
         * Replace a zoo: every writable field (read-only ones are ignored)
         * @description The body holds every writable field; id, created_at and updated_at are ignored, so a body read with GET can be sent back. 201 with the complete record and its new ETag. If-Match makes the write conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).
         */
        put: operations["replaceZoo"];
        post?: never;
        /**
         * Delete a zoo
         * @description 204; its id is never used again and answers 410 from then on. A zoo that animals or employees still name is 409, and nothing is deleted. If-Match makes it conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).
         */
        delete: operations["deleteZoo"];
        /**
         * Methods allowed here and the zoo fields a client may write
         * @description The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. A CORS preflight on the same path is answered by the CORS layer instead, without a token.
         */
        options: operations["describeZoosItem"];
        head?: never;
        /**
         * Change some fields of a zoo
         * @description The body holds only the fields to change. Idempotency-Key makes a retry safe. 201 with the complete record and its new ETag. If-Match makes the write conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).
         */
        patch: operations["updateZoo"];
        trace?: never;
    };
    "/v1/zoos/{zoo_id}/animals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List animals of one zoo
         * @description 20 records a page unless limit or per_page says otherwise (at most 100). Page with limit and offset, or page and per_page, or follow the next link of the Link header: its keyset cursor costs the same on every page. Sort with sortby and order; filter any field by equality (<field>), range (<field>_gt, _gte, _lt, _lte), difference (_ne) or a comma list (_in). X-Total-Count counts every record the filters match. An unknown or ill-typed parameter is 400, never ignored.
         */
        get: operations["listAnimalsOfZoo"];
        put?: never;
        /**
         * Create an animal, or several at once from an array (all or none)
         * @description An object creates one animal: 201 with its Location and ETag. An array creates up to 1000, all or none: 201 with the array. zoo_id is taken from the path. Idempotency-Key makes a retry safe; Prefer: respond-async queues the write as a background job (202).
         */
        post: operations["createAnimalOfZoo"];
        delete?: never;
        /**
         * Methods allowed here and the animal fields a client may write
         * @description The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. A CORS preflight on the same path is answered by the CORS layer instead, without a token.
         */
        options: operations["describeAnimalsOfZoo"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/zoos/{zoo_id}/animals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one animal
         * @description With its ETag; If-None-Match naming it answers 304 without a body. 410 for an animal that was deleted.
         */
        get: operations["getAnimalOfZoo"];
        put?: never;
        post?: never;
        /**
         * Delete an animal
         * @description 204; its id is never used again and answers 410 from then on. If-Match makes it conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).
         */
        delete: operations["deleteAnimalOfZoo"];
        /**
         * Methods allowed here and the animal fields a client may write
         * @description The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. A CORS preflight on the same path is answered by the CORS layer instead, without a token.
         */
        options: operations["describeAnimalsItemOfZoo"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/zoos/{zoo_id}/employees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List employees of one zoo
         * @description 20 records a page unless limit or per_page says otherwise (at most 100). Page with limit and offset, or page and per_page, or follow the next link of the Link header: its keyset cursor costs the same on every page. Sort with sortby and order; filter any field by equality (<field>), range (<field>_gt, _gte, _lt, _lte), difference (_ne) or a comma list (_in). X-Total-Count counts every record the filters match. An unknown or ill-typed parameter is 400, never ignored.
         */
        get: operations["listEmployeesOfZoo"];
        put?: never;
        /**
         * Create an employee, or several at once from an array (all or none)
         * @description An object creates one employee: 201 with its Location and ETag. An array creates up to 1000, all or none: 201 with the array. zoo_id is taken from the path. Idempotency-Key makes a retry safe; Prefer: respond-async queues the write as a background job (202).
         */
        post: operations["createEmployeeOfZoo"];
        delete?: never;
        /**
         * Methods allowed here and the employee fields a client may write
         * @description The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. A CORS preflight on the same path is answered by the CORS layer instead, without a token.
         */
        options: operations["describeEmployeesOfZoo"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/zoos/{zoo_id}/employees/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one employee
         * @description With its ETag; If-None-Match naming it answers 304 without a body. 410 for an employee that was deleted.
         */
        get: operations["getEmployeeOfZoo"];
        put?: never;
        post?: never;
        /**
         * Delete an employee
         * @description 204; its id is never used again and answers 410 from then on. If-Match makes it conditional (412 when the record changed); Prefer: respond-async queues it as a background job (202).
         */
        delete: operations["deleteEmployeeOfZoo"];
        /**
         * Methods allowed here and the employee fields a client may write
         * @description The methods (also in Allow), the writable fields, and the JSON Schema a created record must match. A CORS preflight on the same path is answered by the CORS layer instead, without a token.
         */
        options: operations["describeEmployeesItemOfZoo"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OAuth 2.0 authorization server metadata (RFC 8414)
         * @description The issuer, its endpoints, grants and scopes: what a client library needs to get tokens.
         */
        get: operations["getAuthorizationServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public keys that verify access tokens
         * @description A JSON Web Key Set (RFC 7517) holding the ES256 keys the access tokens are signed with: the newest signs, the others verify the tokens they signed before a rotation.
         */
        get: operations["getJwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            /** @description Human-readable message */
            error: string;
            errors?: {
                /** @description Dotted path of the offending member; "" for the body or parameter as a whole */
                field: string;
                /** @description Machine-readable reason: required, unknown, type, format, length, range, pattern, enum, not_found, unique, ... */
                code: string;
                message: string;
            }[];
            message?: string;
            /** Format: uri */
            documentation_url?: string;
            request_id?: string;
        };
        /** zoo */
        Zoo: {
            /** @description Identifier assigned by the server, never reused */
            id: number;
            name: string;
            city: string;
            /**
             * @description an upper-case ISO 3166-1 alpha-2 code such as DE
             * @enum {string|null}
             */
            country: "AD" | "AE" | "AF" | "AG" | "AI" | "AL" | "AM" | "AO" | "AQ" | "AR" | "AS" | "AT" | "AU" | "AW" | "AX" | "AZ" | "BA" | "BB" | "BD" | "BE" | "BF" | "BG" | "BH" | "BI" | "BJ" | "BL" | "BM" | "BN" | "BO" | "BQ" | "BR" | "BS" | "BT" | "BV" | "BW" | "BY" | "BZ" | "CA" | "CC" | "CD" | "CF" | "CG" | "CH" | "CI" | "CK" | "CL" | "CM" | "CN" | "CO" | "CR" | "CU" | "CV" | "CW" | "CX" | "CY" | "CZ" | "DE" | "DJ" | "DK" | "DM" | "DO" | "DZ" | "EC" | "EE" | "EG" | "EH" | "ER" | "ES" | "ET" | "FI" | "FJ" | "FK" | "FM" | "FO" | "FR" | "GA" | "GB" | "GD" | "GE" | "GF" | "GG" | "GH" | "GI" | "GL" | "GM" | "GN" | "GP" | "GQ" | "GR" | "GS" | "GT" | "GU" | "GW" | "GY" | "HK" | "HM" | "HN" | "HR" | "HT" | "HU" | "ID" | "IE" | "IL" | "IM" | "IN" | "IO" | "IQ" | "IR" | "IS" | "IT" | "JE" | "JM" | "JO" | "JP" | "KE" | "KG" | "KH" | "KI" | "KM" | "KN" | "KP" | "KR" | "KW" | "KY" | "KZ" | "LA" | "LB" | "LC" | "LI" | "LK" | "LR" | "LS" | "LT" | "LU" | "LV" | "LY" | "MA" | "MC" | "MD" | "ME" | "MF" | "MG" | "MH" | "MK" | "ML" | "MM" | "MN" | "MO" | "MP" | "MQ" | "MR" | "MS" | "MT" | "MU" | "MV" | "MW" | "MX" | "MY" | "MZ" | "NA" | "NC" | "NE" | "NF" | "NG" | "NI" | "NL" | "NO" | "NP" | "NR" | "NU" | "NZ" | "OM" | "PA" | "PE" | "PF" | "PG" | "PH" | "PK" | "PL" | "PM" | "PN" | "PR" | "PS" | "PT" | "PW" | "PY" | "QA" | "RE" | "RO" | "RS" | "RU" | "RW" | "SA" | "SB" | "SC" | "SD" | "SE" | "SG" | "SH" | "SI" | "SJ" | "SK" | "SL" | "SM" | "SN" | "SO" | "SR" | "SS" | "ST" | "SV" | "SX" | "SY" | "SZ" | "TC" | "TD" | "TF" | "TG" | "TH" | "TJ" | "TK" | "TL" | "TM" | "TN" | "TO" | "TR" | "TT" | "TV" | "TW" | "TZ" | "UA" | "UG" | "UM" | "US" | "UY" | "UZ" | "VA" | "VC" | "VE" | "VG" | "VI" | "VN" | "VU" | "WF" | "WS" | "YE" | "YT" | "ZA" | "ZM" | "ZW" | null;
            /**
             * Format: date
             * @description Calendar date, YYYY-MM-DD
             */
            opened_on: string | null;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            updated_at: string;
        };
        /** animal */
        Animal: {
            /** @description Identifier assigned by the server, never reused */
            id: number;
            name: string;
            species: string;
            animal_type_id: number;
            /** @description Identifier assigned by the server, never reused */
            zoo_id: number | null;
            /**
             * Format: date
             * @description Calendar date, YYYY-MM-DD
             */
            born_on: string | null;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            updated_at: string;
        };
        /** employee */
        Employee: {
            /** @description Identifier assigned by the server, never reused */
            id: number;
            name: string;
            role: string;
            /**
             * Format: email
             * @description Unique among employees, case-insensitive
             */
            email: string;
            /** @description Identifier assigned by the server, never reused */
            zoo_id: number | null;
            /**
             * Format: date
             * @description Calendar date, YYYY-MM-DD
             */
            hired_on: string | null;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            updated_at: string;
        };
        /** @description Queued: follow Location to learn how it went */
        JobAccepted: {
            /**
             * Format: uuid
             * @description Job identifier, the last segment of the Location of the 202 answer
             */
            id: string;
            /** @enum {string} */
            status: "queued";
        };
        Job: {
            /**
             * Format: uuid
             * @description Job identifier, the last segment of the Location of the 202 answer
             */
            id: string;
            /**
             * @description succeeded when the request was answered with a 2xx, failed otherwise
             * @enum {string}
             */
            status: "queued" | "running" | "succeeded" | "failed";
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            finished_at: string | null;
            result: {
                /** @description The status the request was answered with */
                status: number;
                /** @description The JSON body it was answered with: a record, an array, an error; null when it had none */
                body: unknown;
            } | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getRoot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where to go from here; a browser that navigates here asking for text/html gets a page for people */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        link: {
                            rel: string;
                            /** Format: uri */
                            href: string;
                            title: string;
                            type: string;
                        };
                        links: {
                            rel: string;
                            /** Format: uri */
                            href: string;
                            title: string;
                            type: string;
                        }[];
                    };
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process answers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    issueToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description application/x-www-form-urlencoded (RFC 6749 §4) */
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    grant_type?: string;
                    scope?: string;
                    username?: string;
                    password?: string;
                    refresh_token?: string;
                    client_id?: string;
                    client_secret?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The tokens, never to be cached */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access_token: string;
                        /** @enum {string} */
                        token_type: "Bearer";
                        expires_in: number;
                        scope: string;
                        refresh_token?: string;
                    };
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    token?: string;
                    token_type_hint?: string;
                    client_id?: string;
                    client_secret?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Revoked, or nothing this client could revoke */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        error_description: string;
                    };
                };
            };
        };
    };
    getReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready for requests */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ready";
                        checks: {
                            /** @description `ok` when the database answers a query */
                            database: string;
                            /** @description `ok` when every migration this version ships is applied */
                            migrations: string;
                            /** @description `ok` when the background-job worker is running */
                            jobs: string;
                        };
                    };
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not ready: error says why, checks says which check failed */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What is not ready */
                        error: string;
                        /** @description Absent when the server is overloaded: then no check runs */
                        checks?: {
                            /** @description `ok` when the database answers a query */
                            database: string;
                            /** @description `ok` when every migration this version ships is applied */
                            migrations: string;
                            /** @description `ok` when the background-job worker is running */
                            jobs: string;
                        };
                    };
                };
            };
        };
    };
    getVersion1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where to go from here */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        link: {
                            rel: string;
                            /** Format: uri */
                            href: string;
                            title: string;
                            type: string;
                        };
                        links: {
                            rel: string;
                            /** Format: uri */
                            href: string;
                            title: string;
                            type: string;
                        }[];
                    };
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAnimals: {
        parameters: {
            query?: {
                /** @description Records per answer, 1 to 100 (default 20); goes with offset */
                limit?: number;
                /** @description Records to skip (default 0); goes with limit */
                offset?: number;
                /** @description Page number from 1 (default 1); goes with per_page */
                page?: number;
                /** @description Records per page, 1 to 100 (default 20); goes with page */
                per_page?: number;
                /** @description Comma-separated fields to sort by, from: id, name, species, animal_type_id, zoo_id, born_on, created_at, updated_at (default id) */
                sortby?: string;
                /** @description asc or desc: one for all sortby fields, or one per field (default asc) */
                order?: string;
                /** @description Opaque keyset cursor from a Link header; replaces offset and page */
                cursor?: string;
                /** @description id equals this value */
                id?: number;
                /** @description id gt this value */
                id_gt?: number;
                /** @description id gte this value */
                id_gte?: number;
                /** @description id lt this value */
                id_lt?: number;
                /** @description id lte this value */
                id_lte?: number;
                /** @description id differs from this value */
                id_ne?: number;
                /** @description id is one of these comma-separated integer values */
                id_in?: string;
                /** @description name equals this value */
                name?: string;
                /** @description name gt this value */
                name_gt?: string;
                /** @description name gte this value */
                name_gte?: string;
                /** @description name lt this value */
                name_lt?: string;
                /** @description name lte this value */
                name_lte?: string;
                /** @description name differs from this value */
                name_ne?: string;
                /** @description name is one of these comma-separated string values */
                name_in?: string;
                /** @description species equals this value */
                species?: string;
                /** @description species gt this value */
                species_gt?: string;
                /** @description species gte this value */
                species_gte?: string;
                /** @description species lt this value */
                species_lt?: string;
                /** @description species lte this value */
                species_lte?: string;
                /** @description species differs from this value */
                species_ne?: string;
                /** @description species is one of these comma-separated string values */
                species_in?: string;
                /** @description animal_type_id equals this value */
                animal_type_id?: number;
                /** @description animal_type_id gt this value */
                animal_type_id_gt?: number;
                /** @description animal_type_id gte this value */
                animal_type_id_gte?: number;
                /** @description animal_type_id lt this value */
                animal_type_id_lt?: number;
                /** @description animal_type_id lte this value */
                animal_type_id_lte?: number;
                /** @description animal_type_id differs from this value */
                animal_type_id_ne?: number;
                /** @description animal_type_id is one of these comma-separated integer values */
                animal_type_id_in?: string;
                /** @description zoo_id equals this value; "null" matches records without one */
                zoo_id?: number | "null";
                /** @description zoo_id gt this value */
                zoo_id_gt?: number;
                /** @description zoo_id gte this value */
                zoo_id_gte?: number;
                /** @description zoo_id lt this value */
                zoo_id_lt?: number;
                /** @description zoo_id lte this value */
                zoo_id_lte?: number;
                /** @description zoo_id differs from this value */
                zoo_id_ne?: number | "null";
                /** @description zoo_id is one of these comma-separated reference values */
                zoo_id_in?: string;
                /** @description born_on equals this value; "null" matches records without one */
                born_on?: string | "null";
                /** @description born_on gt this value */
                born_on_gt?: string;
                /** @description born_on gte this value */
                born_on_gte?: string;
                /** @description born_on lt this value */
                born_on_lt?: string;
                /** @description born_on lte this value */
                born_on_lte?: string;
                /** @description born_on differs from this value */
                born_on_ne?: string | "null";
                /** @description born_on is one of these comma-separated date values */
                born_on_in?: string;
                /** @description created_at equals this value */
                created_at?: string;
                /** @description created_at gt this value */
                created_at_gt?: string;
                /** @description created_at gte this value */
                created_at_gte?: string;
                /** @description created_at lt this value */
                created_at_lt?: string;
                /** @description created_at lte this value */
                created_at_lte?: string;
                /** @description created_at differs from this value */
                created_at_ne?: string;
                /** @description created_at is one of these comma-separated timestamp values */
                created_at_in?: string;
                /** @description updated_at equals this value */
                updated_at?: string;
                /** @description updated_at gt this value */
                updated_at_gt?: string;
                /** @description updated_at gte this value */
                updated_at_gte?: string;
                /** @description updated_at lt this value */
                updated_at_lt?: string;
                /** @description updated_at lte this value */
                updated_at_lte?: string;
                /** @description updated_at differs from this value */
                updated_at_ne?: string;
                /** @description updated_at is one of these comma-separated timestamp values */
                updated_at_in?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records, [] past the end */
            200: {
                headers: {
                    /** @description RFC 8288 links to the first, previous, next and last pages, the other query parameters kept; next carries a keyset cursor */
                    Link?: string;
                    /** @description Records matching the filters, on every page */
                    "X-Total-Count"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Animal"][];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAnimal: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters naming this request: a retry with the same key and body gets the first answer again (keys live 24 hours) */
                "Idempotency-Key"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    species: string;
                    animal_type_id: number;
                    zoo_id?: number | null;
                    born_on?: string | null;
                } | {
                    name: string;
                    species: string;
                    animal_type_id: number;
                    zoo_id?: number | null;
                    born_on?: string | null;
                }[];
            };
        };
        responses: {
            /** @description Created: the record (with Location and ETag), or the array of records */
            201: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Animal"] | components["schemas"]["Animal"][];
                };
            };
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed JSON that fails validation (errors lists each field; nothing is written), or an Idempotency-Key already used with another request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    describeAnimals: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a client may do here */
            200: {
                headers: {
                    /** @description The methods this path serves */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        methods: string[];
                        writable: string[];
                        /** @description JSON Schema of the writable fields */
                        schema: unknown;
                    };
                };
            };
            /** @description A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnimal: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 while it is current */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record */
            200: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Animal"];
                };
            };
            /** @description Not Modified: the If-None-Match tag is current */
            304: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replaceAnimal: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the client read: the write goes ahead only if the record is still at that version, else 412 */
                "If-Match"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Identifier assigned by the server, never reused */
                    readonly id?: number;
                    /**
                     * Format: date-time
                     * @description RFC 3339 UTC timestamp
                     */
                    readonly created_at?: string;
                    /**
                     * Format: date-time
                     * @description RFC 3339 UTC timestamp
                     */
                    readonly updated_at?: string;
                    name: string;
                    species: string;
                    animal_type_id: number;
                    zoo_id?: number | null;
                    born_on?: string | null;
                };
            };
        };
        responses: {
            /** @description Changed: the complete record */
            201: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Animal"];
                };
            };
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not name the current ETag: the record changed since it was read */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed JSON that fails validation (errors lists each field; nothing is written), or an Idempotency-Key already used with another request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAnimal: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the client read: the write goes ahead only if the record is still at that version, else 412 */
                "If-Match"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not name the current ETag: the record changed since it was read */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    describeAnimalsItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a client may do here */
            200: {
                headers: {
                    /** @description The methods this path serves */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        methods: string[];
                        writable: string[];
                        /** @description JSON Schema of the writable fields */
                        schema: unknown;
                    };
                };
            };
            /** @description A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAnimal: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the client read: the write goes ahead only if the record is still at that version, else 412 */
                "If-Match"?: string;
                /** @description Up to 255 visible ASCII characters naming this request: a retry with the same key and body gets the first answer again (keys live 24 hours) */
                "Idempotency-Key"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Identifier assigned by the server, never reused */
                    readonly id?: number;
                    /**
                     * Format: date-time
                     * @description RFC 3339 UTC timestamp
                     */
                    readonly created_at?: string;
                    /**
                     * Format: date-time
                     * @description RFC 3339 UTC timestamp
                     */
                    readonly updated_at?: string;
                    name?: string;
                    species?: string;
                    animal_type_id?: number;
                    zoo_id?: number | null;
                    born_on?: string | null;
                };
            };
        };
        responses: {
            /** @description Changed: the complete record */
            201: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Animal"];
                };
            };
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not name the current ETag: the record changed since it was read */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed JSON that fails validation (errors lists each field; nothing is written), or an Idempotency-Key already used with another request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEmployees: {
        parameters: {
            query?: {
                /** @description Records per answer, 1 to 100 (default 20); goes with offset */
                limit?: number;
                /** @description Records to skip (default 0); goes with limit */
                offset?: number;
                /** @description Page number from 1 (default 1); goes with per_page */
                page?: number;
                /** @description Records per page, 1 to 100 (default 20); goes with page */
                per_page?: number;
                /** @description Comma-separated fields to sort by, from: id, name, role, email, zoo_id, hired_on, created_at, updated_at (default id) */
                sortby?: string;
                /** @description asc or desc: one for all sortby fields, or one per field (default asc) */
                order?: string;
                /** @description Opaque keyset cursor from a Link header; replaces offset and page */
                cursor?: string;
                /** @description id equals this value */
                id?: number;
                /** @description id gt this value */
                id_gt?: number;
                /** @description id gte this value */
                id_gte?: number;
                /** @description id lt this value */
                id_lt?: number;
                /** @description id lte this value */
                id_lte?: number;
                /** @description id differs from this value */
                id_ne?: number;
                /** @description id is one of these comma-separated integer values */
                id_in?: string;
                /** @description name equals this value */
                name?: string;
                /** @description name gt this value */
                name_gt?: string;
                /** @description name gte this value */
                name_gte?: string;
                /** @description name lt this value */
                name_lt?: string;
                /** @description name lte this value */
                name_lte?: string;
                /** @description name differs from this value */
                name_ne?: string;
                /** @description name is one of these comma-separated string values */
                name_in?: string;
                /** @description role equals this value */
                role?: string;
                /** @description role gt this value */
                role_gt?: string;
                /** @description role gte this value */
                role_gte?: string;
                /** @description role lt this value */
                role_lt?: string;
                /** @description role lte this value */
                role_lte?: string;
                /** @description role differs from this value */
                role_ne?: string;
                /** @description role is one of these comma-separated string values */
                role_in?: string;
                /** @description email equals this value */
                email?: string;
                /** @description email gt this value */
                email_gt?: string;
                /** @description email gte this value */
                email_gte?: string;
                /** @description email lt this value */
                email_lt?: string;
                /** @description email lte this value */
                email_lte?: string;
                /** @description email differs from this value */
                email_ne?: string;
                /** @description email is one of these comma-separated string values */
                email_in?: string;
                /** @description zoo_id equals this value; "null" matches records without one */
                zoo_id?: number | "null";
                /** @description zoo_id gt this value */
                zoo_id_gt?: number;
                /** @description zoo_id gte this value */
                zoo_id_gte?: number;
                /** @description zoo_id lt this value */
                zoo_id_lt?: number;
                /** @description zoo_id lte this value */
                zoo_id_lte?: number;
                /** @description zoo_id differs from this value */
                zoo_id_ne?: number | "null";
                /** @description zoo_id is one of these comma-separated reference values */
                zoo_id_in?: string;
                /** @description hired_on equals this value; "null" matches records without one */
                hired_on?: string | "null";
                /** @description hired_on gt this value */
                hired_on_gt?: string;
                /** @description hired_on gte this value */
                hired_on_gte?: string;
                /** @description hired_on lt this value */
                hired_on_lt?: string;
                /** @description hired_on lte this value */
                hired_on_lte?: string;
                /** @description hired_on differs from this value */
                hired_on_ne?: string | "null";
                /** @description hired_on is one of these comma-separated date values */
                hired_on_in?: string;
                /** @description created_at equals this value */
                created_at?: string;
                /** @description created_at gt this value */
                created_at_gt?: string;
                /** @description created_at gte this value */
                created_at_gte?: string;
                /** @description created_at lt this value */
                created_at_lt?: string;
                /** @description created_at lte this value */
                created_at_lte?: string;
                /** @description created_at differs from this value */
                created_at_ne?: string;
                /** @description created_at is one of these comma-separated timestamp values */
                created_at_in?: string;
                /** @description updated_at equals this value */
                updated_at?: string;
                /** @description updated_at gt this value */
                updated_at_gt?: string;
                /** @description updated_at gte this value */
                updated_at_gte?: string;
                /** @description updated_at lt this value */
                updated_at_lt?: string;
                /** @description updated_at lte this value */
                updated_at_lte?: string;
                /** @description updated_at differs from this value */
                updated_at_ne?: string;
                /** @description updated_at is one of these comma-separated timestamp values */
                updated_at_in?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records, [] past the end */
            200: {
                headers: {
                    /** @description RFC 8288 links to the first, previous, next and last pages, the other query parameters kept; next carries a keyset cursor */
                    Link?: string;
                    /** @description Records matching the filters, on every page */
                    "X-Total-Count"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Employee"][];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEmployee: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters naming this request: a retry with the same key and body gets the first answer again (keys live 24 hours) */
                "Idempotency-Key"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    role: string;
                    /**
                     * Format: email
                     * @description Unique among employees, case-insensitive
                     */
                    email: string;
                    zoo_id?: number | null;
                    hired_on?: string | null;
                } | {
                    name: string;
                    role: string;
                    /**
                     * Format: email
                     * @description Unique among employees, case-insensitive
                     */
                    email: string;
                    zoo_id?: number | null;
                    hired_on?: string | null;
                }[];
            };
        };
        responses: {
            /** @description Created: the record (with Location and ETag), or the array of records */
            201: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Employee"] | components["schemas"]["Employee"][];
                };
            };
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed JSON that fails validation (errors lists each field; nothing is written), or an Idempotency-Key already used with another request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    describeEmployees: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a client may do here */
            200: {
                headers: {
                    /** @description The methods this path serves */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        methods: string[];
                        writable: string[];
                        /** @description JSON Schema of the writable fields */
                        schema: unknown;
                    };
                };
            };
            /** @description A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEmployee: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 while it is current */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record */
            200: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Employee"];
                };
            };
            /** @description Not Modified: the If-None-Match tag is current */
            304: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replaceEmployee: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the client read: the write goes ahead only if the record is still at that version, else 412 */
                "If-Match"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Identifier assigned by the server, never reused */
                    readonly id?: number;
                    /**
                     * Format: date-time
                     * @description RFC 3339 UTC timestamp
                     */
                    readonly created_at?: string;
                    /**
                     * Format: date-time
                     * @description RFC 3339 UTC timestamp
                     */
                    readonly updated_at?: string;
                    name: string;
                    role: string;
                    /**
                     * Format: email
                     * @description Unique among employees, case-insensitive
                     */
                    email: string;
                    zoo_id?: number | null;
                    hired_on?: string | null;
                };
            };
        };
        responses: {
            /** @description Changed: the complete record */
            201: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Employee"];
                };
            };
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not name the current ETag: the record changed since it was read */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed JSON that fails validation (errors lists each field; nothing is written), or an Idempotency-Key already used with another request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEmployee: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the client read: the write goes ahead only if the record is still at that version, else 412 */
                "If-Match"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not name the current ETag: the record changed since it was read */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    describeEmployeesItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a client may do here */
            200: {
                headers: {
                    /** @description The methods this path serves */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        methods: string[];
                        writable: string[];
                        /** @description JSON Schema of the writable fields */
                        schema: unknown;
                    };
                };
            };
            /** @description A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateEmployee: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the client read: the write goes ahead only if the record is still at that version, else 412 */
                "If-Match"?: string;
                /** @description Up to 255 visible ASCII characters naming this request: a retry with the same key and body gets the first answer again (keys live 24 hours) */
                "Idempotency-Key"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Identifier assigned by the server, never reused */
                    readonly id?: number;
                    /**
                     * Format: date-time
                     * @description RFC 3339 UTC timestamp
                     */
                    readonly created_at?: string;
                    /**
                     * Format: date-time
                     * @description RFC 3339 UTC timestamp
                     */
                    readonly updated_at?: string;
                    name?: string;
                    role?: string;
                    /**
                     * Format: email
                     * @description Unique among employees, case-insensitive
                     */
                    email?: string;
                    zoo_id?: number | null;
                    hired_on?: string | null;
                };
            };
        };
        responses: {
            /** @description Changed: the complete record */
            201: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Employee"];
                };
            };
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not name the current ETag: the record changed since it was read */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed JSON that fails validation (errors lists each field; nothing is written), or an Idempotency-Key already used with another request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Job identifier, from the Location of the 202 answer */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job */
            200: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listZoos: {
        parameters: {
            query?: {
                /** @description Records per answer, 1 to 100 (default 20); goes with offset */
                limit?: number;
                /** @description Records to skip (default 0); goes with limit */
                offset?: number;
                /** @description Page number from 1 (default 1); goes with per_page */
                page?: number;
                /** @description Records per page, 1 to 100 (default 20); goes with page */
                per_page?: number;
                /** @description Comma-separated fields to sort by, from: id, name, city, country, opened_on, created_at, updated_at (default id) */
                sortby?: string;
                /** @description asc or desc: one for all sortby fields, or one per field (default asc) */
                order?: string;
                /** @description Opaque keyset cursor from a Link header; replaces offset and page */
                cursor?: string;
                /** @description id equals this value */
                id?: number;
                /** @description id gt this value */
                id_gt?: number;
                /** @description id gte this value */
                id_gte?: number;
                /** @description id lt this value */
                id_lt?: number;
                /** @description id lte this value */
                id_lte?: number;
                /** @description id differs from this value */
                id_ne?: number;
                /** @description id is one of these comma-separated integer values */
                id_in?: string;
                /** @description name equals this value */
                name?: string;
                /** @description name gt this value */
                name_gt?: string;
                /** @description name gte this value */
                name_gte?: string;
                /** @description name lt this value */
                name_lt?: string;
                /** @description name lte this value */
                name_lte?: string;
                /** @description name differs from this value */
                name_ne?: string;
                /** @description name is one of these comma-separated string values */
                name_in?: string;
                /** @description city equals this value */
                city?: string;
                /** @description city gt this value */
                city_gt?: string;
                /** @description city gte this value */
                city_gte?: string;
                /** @description city lt this value */
                city_lt?: string;
                /** @description city lte this value */
                city_lte?: string;
                /** @description city differs from this value */
                city_ne?: string;
                /** @description city is one of these comma-separated string values */
                city_in?: string;
                /** @description country equals this value; "null" matches records without one */
                country?: string | "null";
                /** @description country gt this value */
                country_gt?: string;
                /** @description country gte this value */
                country_gte?: string;
                /** @description country lt this value */
                country_lt?: string;
                /** @description country lte this value */
                country_lte?: string;
                /** @description country differs from this value */
                country_ne?: string | "null";
                /** @description country is one of these comma-separated string values */
                country_in?: string;
                /** @description opened_on equals this value; "null" matches records without one */
                opened_on?: string | "null";
                /** @description opened_on gt this value */
                opened_on_gt?: string;
                /** @description opened_on gte this value */
                opened_on_gte?: string;
                /** @description opened_on lt this value */
                opened_on_lt?: string;
                /** @description opened_on lte this value */
                opened_on_lte?: string;
                /** @description opened_on differs from this value */
                opened_on_ne?: string | "null";
                /** @description opened_on is one of these comma-separated date values */
                opened_on_in?: string;
                /** @description created_at equals this value */
                created_at?: string;
                /** @description created_at gt this value */
                created_at_gt?: string;
                /** @description created_at gte this value */
                created_at_gte?: string;
                /** @description created_at lt this value */
                created_at_lt?: string;
                /** @description created_at lte this value */
                created_at_lte?: string;
                /** @description created_at differs from this value */
                created_at_ne?: string;
                /** @description created_at is one of these comma-separated timestamp values */
                created_at_in?: string;
                /** @description updated_at equals this value */
                updated_at?: string;
                /** @description updated_at gt this value */
                updated_at_gt?: string;
                /** @description updated_at gte this value */
                updated_at_gte?: string;
                /** @description updated_at lt this value */
                updated_at_lt?: string;
                /** @description updated_at lte this value */
                updated_at_lte?: string;
                /** @description updated_at differs from this value */
                updated_at_ne?: string;
                /** @description updated_at is one of these comma-separated timestamp values */
                updated_at_in?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records, [] past the end */
            200: {
                headers: {
                    /** @description RFC 8288 links to the first, previous, next and last pages, the other query parameters kept; next carries a keyset cursor */
                    Link?: string;
                    /** @description Records matching the filters, on every page */
                    "X-Total-Count"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Zoo"][];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createZoo: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters naming this request: a retry with the same key and body gets the first answer again (keys live 24 hours) */
                "Idempotency-Key"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    city: string;
                    country?: ("AD" | "AE" | "AF" | "AG" | "AI" | "AL" | "AM" | "AO" | "AQ" | "AR" | "AS" | "AT" | "AU" | "AW" | "AX" | "AZ" | "BA" | "BB" | "BD" | "BE" | "BF" | "BG" | "BH" | "BI" | "BJ" | "BL" | "BM" | "BN" | "BO" | "BQ" | "BR" | "BS" | "BT" | "BV" | "BW" | "BY" | "BZ" | "CA" | "CC" | "CD" | "CF" | "CG" | "CH" | "CI" | "CK" | "CL" | "CM" | "CN" | "CO" | "CR" | "CU" | "CV" | "CW" | "CX" | "CY" | "CZ" | "DE" | "DJ" | "DK" | "DM" | "DO" | "DZ" | "EC" | "EE" | "EG" | "EH" | "ER" | "ES" | "ET" | "FI" | "FJ" | "FK" | "FM" | "FO" | "FR" | "GA" | "GB" | "GD" | "GE" | "GF" | "GG" | "GH" | "GI" | "GL" | "GM" | "GN" | "GP" | "GQ" | "GR" | "GS" | "GT" | "GU" | "GW" | "GY" | "HK" | "HM" | "HN" | "HR" | "HT" | "HU" | "ID" | "IE" | "IL" | "IM" | "IN" | "IO" | "IQ" | "IR" | "IS" | "IT" | "JE" | "JM" | "JO" | "JP" | "KE" | "KG" | "KH" | "KI" | "KM" | "KN" | "KP" | "KR" | "KW" | "KY" | "KZ" | "LA" | "LB" | "LC" | "LI" | "LK" | "LR" | "LS" | "LT" | "LU" | "LV" | "LY" | "MA" | "MC" | "MD" | "ME" | "MF" | "MG" | "MH" | "MK" | "ML" | "MM" | "MN" | "MO" | "MP" | "MQ" | "MR" | "MS" | "MT" | "MU" | "MV" | "MW" | "MX" | "MY" | "MZ" | "NA" | "NC" | "NE" | "NF" | "NG" | "NI" | "NL" | "NO" | "NP" | "NR" | "NU" | "NZ" | "OM" | "PA" | "PE" | "PF" | "PG" | "PH" | "PK" | "PL" | "PM" | "PN" | "PR" | "PS" | "PT" | "PW" | "PY" | "QA" | "RE" | "RO" | "RS" | "RU" | "RW" | "SA" | "SB" | "SC" | "SD" | "SE" | "SG" | "SH" | "SI" | "SJ" | "SK" | "SL" | "SM" | "SN" | "SO" | "SR" | "SS" | "ST" | "SV" | "SX" | "SY" | "SZ" | "TC" | "TD" | "TF" | "TG" | "TH" | "TJ" | "TK" | "TL" | "TM" | "TN" | "TO" | "TR" | "TT" | "TV" | "TW" | "TZ" | "UA" | "UG" | "UM" | "US" | "UY" | "UZ" | "VA" | "VC" | "VE" | "VG" | "VI" | "VN" | "VU" | "WF" | "WS" | "YE" | "YT" | "ZA" | "ZM" | "ZW") | null;
                    opened_on?: string | null;
                } | {
                    name: string;
                    city: string;
                    country?: ("AD" | "AE" | "AF" | "AG" | "AI" | "AL" | "AM" | "AO" | "AQ" | "AR" | "AS" | "AT" | "AU" | "AW" | "AX" | "AZ" | "BA" | "BB" | "BD" | "BE" | "BF" | "BG" | "BH" | "BI" | "BJ" | "BL" | "BM" | "BN" | "BO" | "BQ" | "BR" | "BS" | "BT" | "BV" | "BW" | "BY" | "BZ" | "CA" | "CC" | "CD" | "CF" | "CG" | "CH" | "CI" | "CK" | "CL" | "CM" | "CN" | "CO" | "CR" | "CU" | "CV" | "CW" | "CX" | "CY" | "CZ" | "DE" | "DJ" | "DK" | "DM" | "DO" | "DZ" | "EC" | "EE" | "EG" | "EH" | "ER" | "ES" | "ET" | "FI" | "FJ" | "FK" | "FM" | "FO" | "FR" | "GA" | "GB" | "GD" | "GE" | "GF" | "GG" | "GH" | "GI" | "GL" | "GM" | "GN" | "GP" | "GQ" | "GR" | "GS" | "GT" | "GU" | "GW" | "GY" | "HK" | "HM" | "HN" | "HR" | "HT" | "HU" | "ID" | "IE" | "IL" | "IM" | "IN" | "IO" | "IQ" | "IR" | "IS" | "IT" | "JE" | "JM" | "JO" | "JP" | "KE" | "KG" | "KH" | "KI" | "KM" | "KN" | "KP" | "KR" | "KW" | "KY" | "KZ" | "LA" | "LB" | "LC" | "LI" | "LK" | "LR" | "LS" | "LT" | "LU" | "LV" | "LY" | "MA" | "MC" | "MD" | "ME" | "MF" | "MG" | "MH" | "MK" | "ML" | "MM" | "MN" | "MO" | "MP" | "MQ" | "MR" | "MS" | "MT" | "MU" | "MV" | "MW" | "MX" | "MY" | "MZ" | "NA" | "NC" | "NE" | "NF" | "NG" | "NI" | "NL" | "NO" | "NP" | "NR" | "NU" | "NZ" | "OM" | "PA" | "PE" | "PF" | "PG" | "PH" | "PK" | "PL" | "PM" | "PN" | "PR" | "PS" | "PT" | "PW" | "PY" | "QA" | "RE" | "RO" | "RS" | "RU" | "RW" | "SA" | "SB" | "SC" | "SD" | "SE" | "SG" | "SH" | "SI" | "SJ" | "SK" | "SL" | "SM" | "SN" | "SO" | "SR" | "SS" | "ST" | "SV" | "SX" | "SY" | "SZ" | "TC" | "TD" | "TF" | "TG" | "TH" | "TJ" | "TK" | "TL" | "TM" | "TN" | "TO" | "TR" | "TT" | "TV" | "TW" | "TZ" | "UA" | "UG" | "UM" | "US" | "UY" | "UZ" | "VA" | "VC" | "VE" | "VG" | "VI" | "VN" | "VU" | "WF" | "WS" | "YE" | "YT" | "ZA" | "ZM" | "ZW") | null;
                    opened_on?: string | null;
                }[];
            };
        };
        responses: {
            /** @description Created: the record (with Location and ETag), or the array of records */
            201: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Zoo"] | components["schemas"]["Zoo"][];
                };
            };
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed JSON that fails validation (errors lists each field; nothing is written), or an Idempotency-Key already used with another request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    describeZoos: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a client may do here */
            200: {
                headers: {
                    /** @description The methods this path serves */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        methods: string[];
                        writable: string[];
                        /** @description JSON Schema of the writable fields */
                        schema: unknown;
                    };
                };
            };
            /** @description A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getZoo: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 while it is current */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record */
            200: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Zoo"];
                };
            };
            /** @description Not Modified: the If-None-Match tag is current */
            304: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replaceZoo: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the client read: the write goes ahead only if the record is still at that version, else 412 */
                "If-Match"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Identifier assigned by the server, never reused */
                    readonly id?: number;
                    /**
                     * Format: date-time
                     * @description RFC 3339 UTC timestamp
                     */
                    readonly created_at?: string;
                    /**
                     * Format: date-time
                     * @description RFC 3339 UTC timestamp
                     */
                    readonly updated_at?: string;
                    name: string;
                    city: string;
                    country?: ("AD" | "AE" | "AF" | "AG" | "AI" | "AL" | "AM" | "AO" | "AQ" | "AR" | "AS" | "AT" | "AU" | "AW" | "AX" | "AZ" | "BA" | "BB" | "BD" | "BE" | "BF" | "BG" | "BH" | "BI" | "BJ" | "BL" | "BM" | "BN" | "BO" | "BQ" | "BR" | "BS" | "BT" | "BV" | "BW" | "BY" | "BZ" | "CA" | "CC" | "CD" | "CF" | "CG" | "CH" | "CI" | "CK" | "CL" | "CM" | "CN" | "CO" | "CR" | "CU" | "CV" | "CW" | "CX" | "CY" | "CZ" | "DE" | "DJ" | "DK" | "DM" | "DO" | "DZ" | "EC" | "EE" | "EG" | "EH" | "ER" | "ES" | "ET" | "FI" | "FJ" | "FK" | "FM" | "FO" | "FR" | "GA" | "GB" | "GD" | "GE" | "GF" | "GG" | "GH" | "GI" | "GL" | "GM" | "GN" | "GP" | "GQ" | "GR" | "GS" | "GT" | "GU" | "GW" | "GY" | "HK" | "HM" | "HN" | "HR" | "HT" | "HU" | "ID" | "IE" | "IL" | "IM" | "IN" | "IO" | "IQ" | "IR" | "IS" | "IT" | "JE" | "JM" | "JO" | "JP" | "KE" | "KG" | "KH" | "KI" | "KM" | "KN" | "KP" | "KR" | "KW" | "KY" | "KZ" | "LA" | "LB" | "LC" | "LI" | "LK" | "LR" | "LS" | "LT" | "LU" | "LV" | "LY" | "MA" | "MC" | "MD" | "ME" | "MF" | "MG" | "MH" | "MK" | "ML" | "MM" | "MN" | "MO" | "MP" | "MQ" | "MR" | "MS" | "MT" | "MU" | "MV" | "MW" | "MX" | "MY" | "MZ" | "NA" | "NC" | "NE" | "NF" | "NG" | "NI" | "NL" | "NO" | "NP" | "NR" | "NU" | "NZ" | "OM" | "PA" | "PE" | "PF" | "PG" | "PH" | "PK" | "PL" | "PM" | "PN" | "PR" | "PS" | "PT" | "PW" | "PY" | "QA" | "RE" | "RO" | "RS" | "RU" | "RW" | "SA" | "SB" | "SC" | "SD" | "SE" | "SG" | "SH" | "SI" | "SJ" | "SK" | "SL" | "SM" | "SN" | "SO" | "SR" | "SS" | "ST" | "SV" | "SX" | "SY" | "SZ" | "TC" | "TD" | "TF" | "TG" | "TH" | "TJ" | "TK" | "TL" | "TM" | "TN" | "TO" | "TR" | "TT" | "TV" | "TW" | "TZ" | "UA" | "UG" | "UM" | "US" | "UY" | "UZ" | "VA" | "VC" | "VE" | "VG" | "VI" | "VN" | "VU" | "WF" | "WS" | "YE" | "YT" | "ZA" | "ZM" | "ZW") | null;
                    opened_on?: string | null;
                };
            };
        };
        responses: {
            /** @description Changed: the complete record */
            201: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Zoo"];
                };
            };
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not name the current ETag: the record changed since it was read */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed JSON that fails validation (errors lists each field; nothing is written), or an Idempotency-Key already used with another request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteZoo: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the client read: the write goes ahead only if the record is still at that version, else 412 */
                "If-Match"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not name the current ETag: the record changed since it was read */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    describeZoosItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a client may do here */
            200: {
                headers: {
                    /** @description The methods this path serves */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        methods: string[];
                        writable: string[];
                        /** @description JSON Schema of the writable fields */
                        schema: unknown;
                    };
                };
            };
            /** @description A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateZoo: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the client read: the write goes ahead only if the record is still at that version, else 412 */
                "If-Match"?: string;
                /** @description Up to 255 visible ASCII characters naming this request: a retry with the same key and body gets the first answer again (keys live 24 hours) */
                "Idempotency-Key"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Identifier assigned by the server, never reused */
                    readonly id?: number;
                    /**
                     * Format: date-time
                     * @description RFC 3339 UTC timestamp
                     */
                    readonly created_at?: string;
                    /**
                     * Format: date-time
                     * @description RFC 3339 UTC timestamp
                     */
                    readonly updated_at?: string;
                    name?: string;
                    city?: string;
                    country?: ("AD" | "AE" | "AF" | "AG" | "AI" | "AL" | "AM" | "AO" | "AQ" | "AR" | "AS" | "AT" | "AU" | "AW" | "AX" | "AZ" | "BA" | "BB" | "BD" | "BE" | "BF" | "BG" | "BH" | "BI" | "BJ" | "BL" | "BM" | "BN" | "BO" | "BQ" | "BR" | "BS" | "BT" | "BV" | "BW" | "BY" | "BZ" | "CA" | "CC" | "CD" | "CF" | "CG" | "CH" | "CI" | "CK" | "CL" | "CM" | "CN" | "CO" | "CR" | "CU" | "CV" | "CW" | "CX" | "CY" | "CZ" | "DE" | "DJ" | "DK" | "DM" | "DO" | "DZ" | "EC" | "EE" | "EG" | "EH" | "ER" | "ES" | "ET" | "FI" | "FJ" | "FK" | "FM" | "FO" | "FR" | "GA" | "GB" | "GD" | "GE" | "GF" | "GG" | "GH" | "GI" | "GL" | "GM" | "GN" | "GP" | "GQ" | "GR" | "GS" | "GT" | "GU" | "GW" | "GY" | "HK" | "HM" | "HN" | "HR" | "HT" | "HU" | "ID" | "IE" | "IL" | "IM" | "IN" | "IO" | "IQ" | "IR" | "IS" | "IT" | "JE" | "JM" | "JO" | "JP" | "KE" | "KG" | "KH" | "KI" | "KM" | "KN" | "KP" | "KR" | "KW" | "KY" | "KZ" | "LA" | "LB" | "LC" | "LI" | "LK" | "LR" | "LS" | "LT" | "LU" | "LV" | "LY" | "MA" | "MC" | "MD" | "ME" | "MF" | "MG" | "MH" | "MK" | "ML" | "MM" | "MN" | "MO" | "MP" | "MQ" | "MR" | "MS" | "MT" | "MU" | "MV" | "MW" | "MX" | "MY" | "MZ" | "NA" | "NC" | "NE" | "NF" | "NG" | "NI" | "NL" | "NO" | "NP" | "NR" | "NU" | "NZ" | "OM" | "PA" | "PE" | "PF" | "PG" | "PH" | "PK" | "PL" | "PM" | "PN" | "PR" | "PS" | "PT" | "PW" | "PY" | "QA" | "RE" | "RO" | "RS" | "RU" | "RW" | "SA" | "SB" | "SC" | "SD" | "SE" | "SG" | "SH" | "SI" | "SJ" | "SK" | "SL" | "SM" | "SN" | "SO" | "SR" | "SS" | "ST" | "SV" | "SX" | "SY" | "SZ" | "TC" | "TD" | "TF" | "TG" | "TH" | "TJ" | "TK" | "TL" | "TM" | "TN" | "TO" | "TR" | "TT" | "TV" | "TW" | "TZ" | "UA" | "UG" | "UM" | "US" | "UY" | "UZ" | "VA" | "VC" | "VE" | "VG" | "VI" | "VN" | "VU" | "WF" | "WS" | "YE" | "YT" | "ZA" | "ZM" | "ZW") | null;
                    opened_on?: string | null;
                };
            };
        };
        responses: {
            /** @description Changed: the complete record */
            201: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Zoo"];
                };
            };
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not name the current ETag: the record changed since it was read */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed JSON that fails validation (errors lists each field; nothing is written), or an Idempotency-Key already used with another request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAnimalsOfZoo: {
        parameters: {
            query?: {
                /** @description Records per answer, 1 to 100 (default 20); goes with offset */
                limit?: number;
                /** @description Records to skip (default 0); goes with limit */
                offset?: number;
                /** @description Page number from 1 (default 1); goes with per_page */
                page?: number;
                /** @description Records per page, 1 to 100 (default 20); goes with page */
                per_page?: number;
                /** @description Comma-separated fields to sort by, from: id, name, species, animal_type_id, zoo_id, born_on, created_at, updated_at (default id) */
                sortby?: string;
                /** @description asc or desc: one for all sortby fields, or one per field (default asc) */
                order?: string;
                /** @description Opaque keyset cursor from a Link header; replaces offset and page */
                cursor?: string;
                /** @description id equals this value */
                id?: number;
                /** @description id gt this value */
                id_gt?: number;
                /** @description id gte this value */
                id_gte?: number;
                /** @description id lt this value */
                id_lt?: number;
                /** @description id lte this value */
                id_lte?: number;
                /** @description id differs from this value */
                id_ne?: number;
                /** @description id is one of these comma-separated integer values */
                id_in?: string;
                /** @description name equals this value */
                name?: string;
                /** @description name gt this value */
                name_gt?: string;
                /** @description name gte this value */
                name_gte?: string;
                /** @description name lt this value */
                name_lt?: string;
                /** @description name lte this value */
                name_lte?: string;
                /** @description name differs from this value */
                name_ne?: string;
                /** @description name is one of these comma-separated string values */
                name_in?: string;
                /** @description species equals this value */
                species?: string;
                /** @description species gt this value */
                species_gt?: string;
                /** @description species gte this value */
                species_gte?: string;
                /** @description species lt this value */
                species_lt?: string;
                /** @description species lte this value */
                species_lte?: string;
                /** @description species differs from this value */
                species_ne?: string;
                /** @description species is one of these comma-separated string values */
                species_in?: string;
                /** @description animal_type_id equals this value */
                animal_type_id?: number;
                /** @description animal_type_id gt this value */
                animal_type_id_gt?: number;
                /** @description animal_type_id gte this value */
                animal_type_id_gte?: number;
                /** @description animal_type_id lt this value */
                animal_type_id_lt?: number;
                /** @description animal_type_id lte this value */
                animal_type_id_lte?: number;
                /** @description animal_type_id differs from this value */
                animal_type_id_ne?: number;
                /** @description animal_type_id is one of these comma-separated integer values */
                animal_type_id_in?: string;
                /** @description zoo_id equals this value; "null" matches records without one */
                zoo_id?: number | "null";
                /** @description zoo_id gt this value */
                zoo_id_gt?: number;
                /** @description zoo_id gte this value */
                zoo_id_gte?: number;
                /** @description zoo_id lt this value */
                zoo_id_lt?: number;
                /** @description zoo_id lte this value */
                zoo_id_lte?: number;
                /** @description zoo_id differs from this value */
                zoo_id_ne?: number | "null";
                /** @description zoo_id is one of these comma-separated reference values */
                zoo_id_in?: string;
                /** @description born_on equals this value; "null" matches records without one */
                born_on?: string | "null";
                /** @description born_on gt this value */
                born_on_gt?: string;
                /** @description born_on gte this value */
                born_on_gte?: string;
                /** @description born_on lt this value */
                born_on_lt?: string;
                /** @description born_on lte this value */
                born_on_lte?: string;
                /** @description born_on differs from this value */
                born_on_ne?: string | "null";
                /** @description born_on is one of these comma-separated date values */
                born_on_in?: string;
                /** @description created_at equals this value */
                created_at?: string;
                /** @description created_at gt this value */
                created_at_gt?: string;
                /** @description created_at gte this value */
                created_at_gte?: string;
                /** @description created_at lt this value */
                created_at_lt?: string;
                /** @description created_at lte this value */
                created_at_lte?: string;
                /** @description created_at differs from this value */
                created_at_ne?: string;
                /** @description created_at is one of these comma-separated timestamp values */
                created_at_in?: string;
                /** @description updated_at equals this value */
                updated_at?: string;
                /** @description updated_at gt this value */
                updated_at_gt?: string;
                /** @description updated_at gte this value */
                updated_at_gte?: string;
                /** @description updated_at lt this value */
                updated_at_lt?: string;
                /** @description updated_at lte this value */
                updated_at_lte?: string;
                /** @description updated_at differs from this value */
                updated_at_ne?: string;
                /** @description updated_at is one of these comma-separated timestamp values */
                updated_at_in?: string;
            };
            header?: never;
            path: {
                /** @description Identifier assigned by the server, never reused */
                zoo_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records, [] past the end */
            200: {
                headers: {
                    /** @description RFC 8288 links to the first, previous, next and last pages, the other query parameters kept; next carries a keyset cursor */
                    Link?: string;
                    /** @description Records matching the filters, on every page */
                    "X-Total-Count"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Animal"][];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAnimalOfZoo: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters naming this request: a retry with the same key and body gets the first answer again (keys live 24 hours) */
                "Idempotency-Key"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                zoo_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    species: string;
                    animal_type_id: number;
                    born_on?: string | null;
                } | {
                    name: string;
                    species: string;
                    animal_type_id: number;
                    born_on?: string | null;
                }[];
            };
        };
        responses: {
            /** @description Created: the record (with Location and ETag), or the array of records */
            201: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Animal"] | components["schemas"]["Animal"][];
                };
            };
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed JSON that fails validation (errors lists each field; nothing is written), or an Idempotency-Key already used with another request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    describeAnimalsOfZoo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier assigned by the server, never reused */
                zoo_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a client may do here */
            200: {
                headers: {
                    /** @description The methods this path serves */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        methods: string[];
                        writable: string[];
                        /** @description JSON Schema of the writable fields */
                        schema: unknown;
                    };
                };
            };
            /** @description A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnimalOfZoo: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 while it is current */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                zoo_id: number;
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record */
            200: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Animal"];
                };
            };
            /** @description Not Modified: the If-None-Match tag is current */
            304: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAnimalOfZoo: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the client read: the write goes ahead only if the record is still at that version, else 412 */
                "If-Match"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                zoo_id: number;
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not name the current ETag: the record changed since it was read */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    describeAnimalsItemOfZoo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier assigned by the server, never reused */
                zoo_id: number;
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a client may do here */
            200: {
                headers: {
                    /** @description The methods this path serves */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        methods: string[];
                        writable: string[];
                        /** @description JSON Schema of the writable fields */
                        schema: unknown;
                    };
                };
            };
            /** @description A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEmployeesOfZoo: {
        parameters: {
            query?: {
                /** @description Records per answer, 1 to 100 (default 20); goes with offset */
                limit?: number;
                /** @description Records to skip (default 0); goes with limit */
                offset?: number;
                /** @description Page number from 1 (default 1); goes with per_page */
                page?: number;
                /** @description Records per page, 1 to 100 (default 20); goes with page */
                per_page?: number;
                /** @description Comma-separated fields to sort by, from: id, name, role, email, zoo_id, hired_on, created_at, updated_at (default id) */
                sortby?: string;
                /** @description asc or desc: one for all sortby fields, or one per field (default asc) */
                order?: string;
                /** @description Opaque keyset cursor from a Link header; replaces offset and page */
                cursor?: string;
                /** @description id equals this value */
                id?: number;
                /** @description id gt this value */
                id_gt?: number;
                /** @description id gte this value */
                id_gte?: number;
                /** @description id lt this value */
                id_lt?: number;
                /** @description id lte this value */
                id_lte?: number;
                /** @description id differs from this value */
                id_ne?: number;
                /** @description id is one of these comma-separated integer values */
                id_in?: string;
                /** @description name equals this value */
                name?: string;
                /** @description name gt this value */
                name_gt?: string;
                /** @description name gte this value */
                name_gte?: string;
                /** @description name lt this value */
                name_lt?: string;
                /** @description name lte this value */
                name_lte?: string;
                /** @description name differs from this value */
                name_ne?: string;
                /** @description name is one of these comma-separated string values */
                name_in?: string;
                /** @description role equals this value */
                role?: string;
                /** @description role gt this value */
                role_gt?: string;
                /** @description role gte this value */
                role_gte?: string;
                /** @description role lt this value */
                role_lt?: string;
                /** @description role lte this value */
                role_lte?: string;
                /** @description role differs from this value */
                role_ne?: string;
                /** @description role is one of these comma-separated string values */
                role_in?: string;
                /** @description email equals this value */
                email?: string;
                /** @description email gt this value */
                email_gt?: string;
                /** @description email gte this value */
                email_gte?: string;
                /** @description email lt this value */
                email_lt?: string;
                /** @description email lte this value */
                email_lte?: string;
                /** @description email differs from this value */
                email_ne?: string;
                /** @description email is one of these comma-separated string values */
                email_in?: string;
                /** @description zoo_id equals this value; "null" matches records without one */
                zoo_id?: number | "null";
                /** @description zoo_id gt this value */
                zoo_id_gt?: number;
                /** @description zoo_id gte this value */
                zoo_id_gte?: number;
                /** @description zoo_id lt this value */
                zoo_id_lt?: number;
                /** @description zoo_id lte this value */
                zoo_id_lte?: number;
                /** @description zoo_id differs from this value */
                zoo_id_ne?: number | "null";
                /** @description zoo_id is one of these comma-separated reference values */
                zoo_id_in?: string;
                /** @description hired_on equals this value; "null" matches records without one */
                hired_on?: string | "null";
                /** @description hired_on gt this value */
                hired_on_gt?: string;
                /** @description hired_on gte this value */
                hired_on_gte?: string;
                /** @description hired_on lt this value */
                hired_on_lt?: string;
                /** @description hired_on lte this value */
                hired_on_lte?: string;
                /** @description hired_on differs from this value */
                hired_on_ne?: string | "null";
                /** @description hired_on is one of these comma-separated date values */
                hired_on_in?: string;
                /** @description created_at equals this value */
                created_at?: string;
                /** @description created_at gt this value */
                created_at_gt?: string;
                /** @description created_at gte this value */
                created_at_gte?: string;
                /** @description created_at lt this value */
                created_at_lt?: string;
                /** @description created_at lte this value */
                created_at_lte?: string;
                /** @description created_at differs from this value */
                created_at_ne?: string;
                /** @description created_at is one of these comma-separated timestamp values */
                created_at_in?: string;
                /** @description updated_at equals this value */
                updated_at?: string;
                /** @description updated_at gt this value */
                updated_at_gt?: string;
                /** @description updated_at gte this value */
                updated_at_gte?: string;
                /** @description updated_at lt this value */
                updated_at_lt?: string;
                /** @description updated_at lte this value */
                updated_at_lte?: string;
                /** @description updated_at differs from this value */
                updated_at_ne?: string;
                /** @description updated_at is one of these comma-separated timestamp values */
                updated_at_in?: string;
            };
            header?: never;
            path: {
                /** @description Identifier assigned by the server, never reused */
                zoo_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records, [] past the end */
            200: {
                headers: {
                    /** @description RFC 8288 links to the first, previous, next and last pages, the other query parameters kept; next carries a keyset cursor */
                    Link?: string;
                    /** @description Records matching the filters, on every page */
                    "X-Total-Count"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Employee"][];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEmployeeOfZoo: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 255 visible ASCII characters naming this request: a retry with the same key and body gets the first answer again (keys live 24 hours) */
                "Idempotency-Key"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                zoo_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    role: string;
                    /**
                     * Format: email
                     * @description Unique among employees, case-insensitive
                     */
                    email: string;
                    hired_on?: string | null;
                } | {
                    name: string;
                    role: string;
                    /**
                     * Format: email
                     * @description Unique among employees, case-insensitive
                     */
                    email: string;
                    hired_on?: string | null;
                }[];
            };
        };
        responses: {
            /** @description Created: the record (with Location and ETag), or the array of records */
            201: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Employee"] | components["schemas"]["Employee"][];
                };
            };
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Well-formed JSON that fails validation (errors lists each field; nothing is written), or an Idempotency-Key already used with another request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    describeEmployeesOfZoo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier assigned by the server, never reused */
                zoo_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a client may do here */
            200: {
                headers: {
                    /** @description The methods this path serves */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        methods: string[];
                        writable: string[];
                        /** @description JSON Schema of the writable fields */
                        schema: unknown;
                    };
                };
            };
            /** @description A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEmployeeOfZoo: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the copy the client holds: 304 while it is current */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                zoo_id: number;
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record */
            200: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Employee"];
                };
            };
            /** @description Not Modified: the If-None-Match tag is current */
            304: {
                headers: {
                    /** @description The version of the record: send it back in If-None-Match (GET) or If-Match (PUT, PATCH, DELETE) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEmployeeOfZoo: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag the client read: the write goes ahead only if the record is still at that version, else 412 */
                "If-Match"?: string;
                /** @description respond-async: queue the write as a background job and answer 202 at once */
                Prefer?: string;
            };
            path: {
                /** @description Identifier assigned by the server, never reused */
                zoo_id: number;
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued as a background job: follow Location */
            202: {
                headers: {
                    /** @description Where the record (201) or the job (202) is */
                    Location?: string;
                    /** @description The request was queued as Prefer asked */
                    "Preference-Applied"?: "respond-async";
                    /** @description This is the recorded answer to an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobAccepted"];
                };
            };
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A record that records of another collection still name (nothing is deleted), or a request with the same Idempotency-Key still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match does not name the current ETag: the record changed since it was read */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    describeEmployeesItemOfZoo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier assigned by the server, never reused */
                zoo_id: number;
                /** @description Identifier assigned by the server, never reused */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a client may do here */
            200: {
                headers: {
                    /** @description The methods this path serves */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        methods: string[];
                        writable: string[];
                        /** @description JSON Schema of the writable fields */
                        schema: unknown;
                    };
                };
            };
            /** @description A CORS preflight (Origin and Access-Control-Request-Method), answered for the origins in CORS_ORIGINS */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable or empty JSON, a body of the wrong kind, or a bad query parameter or header: error says which, errors lists each */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is not valid */
            401: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such record or path, or a nested record of another parent */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The record existed and was deleted */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getJwks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
            /** @description The token lacks the scope the request needs; or, behind a proxy (TLS=proxy), the request did not reach it over HTTPS */
            403: {
                headers: {
                    /** @description Bearer realm="zoo-api", with error="invalid_token" or error="insufficient_scope" and the scope needed (RFC 6750) */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Accept rules out application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address, or too many jobs of the caller waiting to run */
            429: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server fault, logged under request_id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The server is overloaded (retry after Retry-After), or the token cannot be checked now: the keys of its issuer are unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before asking again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
