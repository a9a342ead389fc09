import{isAbsolute as i,relative as e}from"node:path";function s(n,t){if(!i(t))return t;let r=e(n,t);return r.startsWith("..")||i(r)?t:r.split("\\").join("/")}export{s as a};
